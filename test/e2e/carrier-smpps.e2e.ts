import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SmppCarrier } from '../../src/messaging/adapters/smpp/smpp-carrier.adapter';
import { parseSmppUrl } from '../../src/messaging/adapters/smpp/smpp-url';
import {
  CapturingLogger,
  outbound,
  RecordingSink,
  waitFor,
} from '../../src/messaging/adapters/smpp/smpp.test-support';
import { SmscSimulator } from '../../src/messaging/adapters/smpp/smsc-simulator';

/**
 * smpps://: a LIVE carrier over TLS, against the SMSC simulator speaking TLS with a self-signed
 * certificate made here by openssl. The carrier's certificate is always verified: against
 * `ca_file` when given, else the system's CAs (which do not know this one).
 */
function selfSignedCertificate(dir: string): { key: string; cert: string; certFile: string } | null {
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        keyFile,
        '-out',
        certFile,
        '-days',
        '1',
      ].concat(['-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost']),
      { stdio: 'ignore' },
    );
  } catch {
    return null;
  }
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile };
}

const dir = mkdtempSync(join(tmpdir(), 'smpps-'));
const certificate = selfSignedCertificate(dir);
if (!certificate) console.warn('smpps:// tests skipped: openssl is not installed to make a test certificate');
const describeTls = certificate ? describe : describe.skip;

describeTls('carriers over TLS (smpps://)', () => {
  let simulator: SmscSimulator;
  let carrier: SmppCarrier | null = null;
  const logger = new CapturingLogger();
  const fast = { reconnectBaseDelayMs: 50, reconnectMaxDelayMs: 200, responseTimeoutMs: 15_000 };

  beforeAll(async () => {
    simulator = await new SmscSimulator({ receiptDelayMs: 20, tls: certificate! }).listen();
  });
  afterEach(async () => {
    await carrier?.stop();
    carrier = null;
  });
  afterAll(async () => {
    await simulator?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('binds over TLS with the carrier CA from ca_file, sends, and gets the receipt', async () => {
    const sink = new RecordingSink();
    const url = simulator.url(`ca_file=${encodeURIComponent(certificate!.certFile)}`);
    expect(url).toMatch(/^smpps:\/\//);
    carrier = new SmppCarrier('MTN', parseSmppUrl(url), { ...fast, logger });
    await carrier.start(sink);
    await waitFor(() => carrier!.isBound(), 'the carrier to bind over TLS');
    const result = await carrier.submit(outbound('+233200000001', 'Over TLS'));
    if (result.outcome !== 'accepted') throw new Error(`not accepted: ${JSON.stringify(result)}`);
    const [id] = result.carrierMessageIds;
    await waitFor(() => sink.for(id).length > 0, 'the delivery receipt');
    expect(sink.for(id)[0]).toMatchObject({ status: 'DELIVERED' });
    expect(simulator.submissionsTo('+233200000001').length).toBeGreaterThan(0);
  });

  it('refuses to bind to a certificate it cannot verify (no ca_file: the system CAs)', async () => {
    const binds = simulator.bindCount;
    const refused = new CapturingLogger();
    carrier = new SmppCarrier('MTN', parseSmppUrl(simulator.url()), { ...fast, logger: refused });
    await carrier.start(new RecordingSink());
    // It keeps retrying with backoff, saying why, and never gets as far as a bind.
    const certificateErrors = () => refused.lines.filter((l) => /self.signed|certificate/i.test(l)).length;
    await waitFor(() => certificateErrors() >= 2, 'two refused TLS handshakes');
    expect(carrier.isBound()).toBe(false);
    expect(simulator.bindCount).toBe(binds);
  });
});
