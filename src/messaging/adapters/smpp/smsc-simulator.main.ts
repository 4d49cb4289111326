/**
 * Runs the SMSC simulator: `npm run smsc`. Environment: SMSC_PORT (2775), SMSC_HOST (0.0.0.0),
 * SMSC_SYSTEM_ID / SMSC_PASSWORD ('test' / 'test'), SMSC_RECEIPT_DELAY_MS (50),
 * SMSC_CONTROL_PORT (2776, on 127.0.0.1; 0 turns it off): `POST /inbound`
 * `{ "from", "to", "message" }` sends that inbound message (a reply, a STOP) to the bound service.
 */
import { createServer } from 'node:http';
import { SmscSimulator } from './smsc-simulator';

/** The simulator's control port: a test or a developer asks it for an inbound message. */
function listenForControl(simulator: SmscSimulator, port: number): void {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answer = (status: number, body: object) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.method !== 'POST' || req.url !== '/inbound')
        return answer(404, { error: 'POST /inbound only' });
      let body: { from?: unknown; to?: unknown; message?: unknown };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return answer(400, { error: 'the body must be JSON' });
      }
      const { from, to, message } = body;
      if (typeof from !== 'string' || typeof to !== 'string' || typeof message !== 'string')
        return answer(400, { error: 'from, to and message are required strings' });
      simulator.sendInbound({ from, to, message }).then(
        (status) => answer(200, { status }),
        (error: Error) => answer(409, { error: error.message }),
      );
    });
  });
  server.listen(port, '127.0.0.1', () =>
    console.log(
      `[smsc] Inbound messages on request: POST http://127.0.0.1:${port}/inbound {"from","to","message"}`,
    ),
  );
}

async function main(): Promise<void> {
  const port = Number(process.env.SMSC_PORT ?? 2775);
  const simulator = new SmscSimulator({
    host: process.env.SMSC_HOST ?? '0.0.0.0',
    port,
    systemId: process.env.SMSC_SYSTEM_ID ?? 'test',
    password: process.env.SMSC_PASSWORD ?? 'test',
    receiptDelayMs: Number(process.env.SMSC_RECEIPT_DELAY_MS ?? 50),
    logger: { log: (message) => console.log(`[smsc] ${message}`) },
  });
  await simulator.listen();
  const controlPort = Number(process.env.SMSC_CONTROL_PORT ?? 2776);
  if (controlPort > 0) listenForControl(simulator, controlPort);
  const url = simulator.url().replace('@0.0.0.0:', '@127.0.0.1:');
  console.log(`[smsc] SMSC simulator listening on port ${simulator.port}`);
  console.log(`[smsc] Connect a carrier with e.g. CARRIER_MTN_URL=${url}`);
  console.log(
    '[smsc] Outcomes by destination: …0000001 DELIVRD, …02 UNDELIV, …03 EXPIRED, …04 ESME_RINVDSTADR, …05 throttled twice; else DELIVRD',
  );

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`[smsc] ${signal}: stopping`);
    simulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error('[smsc] failed to start:', error);
  process.exit(1);
});
