import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  readonly raw: string;
  readonly signature: string | undefined;
}

export interface WebhookReceiver {
  /** http://127.0.0.1:<port>/hooks */
  readonly url: string;
  readonly received: ReceivedWebhook[];
  close(): Promise<void>;
}

/** A webhook endpoint on 127.0.0.1 and an ephemeral port that keeps every delivery and answers 200. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        raw: Buffer.concat(chunks).toString('utf8'),
        signature: req.headers['sms-signature'] as string,
      });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
