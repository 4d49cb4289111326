import type { Clock } from '../../shared/clock';
import type { AggregateStore } from '../../shared/event-store/aggregate-store';
import type { RecordedEvent } from '../../shared/event-store/event-store.port';
import type { Projection, ProjectionView } from '../../shared/projections/projection';
import { INBOUND_STREAM_PREFIX, InboundMessageReceived, optOutStream } from '../domain/compliance.events';
import { optOutNumberOf } from '../domain/inbound-address';
import { optOutIntent, OptOutIntent } from '../domain/opt-out-keywords';
import { optIn, optOut, optOutDecider } from '../domain/opt-out.decider';

export const OPT_OUTS_FROM_INBOUND = 'opt-outs-from-inbound';

interface Request {
  readonly intent: OptOutIntent;
  readonly walletId: string;
  readonly phoneNumber: string;
  readonly inbound: { readonly id: string; readonly position: bigint };
}

/** Each batch's requests by opt-out stream, in log order, until the batch applies them. */
const pending = new WeakMap<ProjectionView, Map<string, Request[]>>();

/**
 * Applies STOP, START and their synonyms from inbound messages to the wallet's opt-out list
 * (the wallet of the inbound's environment: a TEST reply changes the TEST list only). One
 * number's requests of a batch are applied in log order; each records the inbound's position,
 * so a batch run again after a crash applies nothing twice.
 */
export function optOutsFromInboundProcess(aggregates: AggregateStore, clock: Clock): Projection {
  return {
    name: OPT_OUTS_FROM_INBOUND,
    kind: 'process-manager',
    collections: [],
    filter: { streamPrefixes: [INBOUND_STREAM_PREFIX], eventTypes: ['InboundMessageReceived'] },
    apply(recorded: RecordedEvent, view: ProjectionView) {
      const data = (recorded as unknown as InboundMessageReceived).data;
      const intent = optOutIntent(data.message);
      // A sender that is no E.164 number (a short code, text) is on no list: sends go to numbers.
      const phoneNumber = optOutNumberOf(data);
      if (!intent || !data.walletId || phoneNumber === null) return;
      const request: Request = {
        intent,
        walletId: data.walletId,
        phoneNumber,
        inbound: { id: data.inboundId, position: recorded.position },
      };
      const stream = optOutStream(request.walletId, request.phoneNumber);
      let byStream = pending.get(view);
      if (!byStream) pending.set(view, (byStream = new Map()));
      const queued = byStream.get(stream);
      if (queued) return void queued.push(request);
      const requests = [request];
      byStream.set(stream, requests);
      view.afterBatch(async () => {
        for (const r of requests) {
          const cmd = {
            walletId: r.walletId,
            phoneNumber: r.phoneNumber,
            source: 'inbound' as const,
            inbound: r.inbound,
            now: clock.now(),
          };
          await aggregates.handle(stream, optOutDecider, (state) =>
            r.intent === 'opt_out' ? optOut(state, cmd) : optIn(state, cmd),
          );
        }
      });
    },
  };
}
