/**
 * Runs the SMSC simulator: `npm run smsc`. Environment: SMSC_PORT (2775), SMSC_HOST (0.0.0.0),
 * SMSC_SYSTEM_ID / SMSC_PASSWORD ('test' / 'test'), SMSC_RECEIPT_DELAY_MS (50),
 * SMSC_CONTROL_PORT (2776, on 127.0.0.1; 0 turns it off) with SMSC_CONTROL_TOKEN (a random one,
 * printed at start, when unset): `POST /inbound` `{ "from", "to", "message" }` with
 * `Authorization: Bearer <token>` sends that inbound message (a reply, a STOP) to the bound service.
 */
import { randomBytes } from 'node:crypto';
import { startSmscControl } from './smsc-control.server';
import { SmscSimulator } from './smsc-simulator';

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
  if (controlPort > 0) {
    const given = process.env.SMSC_CONTROL_TOKEN;
    const token = given && given.length > 0 ? given : randomBytes(24).toString('hex');
    const control = await startSmscControl(simulator, { port: controlPort, token });
    const { port: listening } = control.address() as { port: number };
    console.log(
      `[smsc] Inbound messages on request: POST http://127.0.0.1:${listening}/inbound {"from","to","message"}` +
        ` with Content-Type: application/json and Authorization: Bearer ${given ? '$SMSC_CONTROL_TOKEN' : token}`,
    );
  }
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
