import type { Decider } from '../../shared/decider';
import { DomainError, notFound } from '../../shared/domain-error';
import { err, ok, Result } from '../../shared/result';
import type { CampaignCreatedData, CampaignEvent } from './campaign.events';

/** A campaign as its stream tells it: what was accepted, who works on it, how far it got. */
export interface Campaign {
  readonly created: CampaignCreatedData | null;
  /** The process expanding it (or finishing its cancel), and until when nobody else may. */
  readonly holder: string | null;
  readonly leaseUntil: string | null;
  /** Chunks of the list written as messages, in order: the next one is this index. */
  readonly chunksQueued: number;
  readonly messagesQueued: number;
  readonly expandedAt: string | null;
  readonly canceledAt: string | null;
  readonly cancelFinishedAt: string | null;
}

const initialState = (): Campaign => ({
  created: null,
  holder: null,
  leaseUntil: null,
  chunksQueued: 0,
  messagesQueued: 0,
  expandedAt: null,
  canceledAt: null,
  cancelFinishedAt: null,
});

export const campaignDecider: Decider<Campaign, CampaignEvent> = {
  initialState,
  evolve(state, event) {
    switch (event.type) {
      case 'CampaignCreated':
        return {
          ...state,
          created: event.data,
          holder: event.data.instance,
          leaseUntil: event.data.leaseUntil,
        };
      case 'CampaignTaken':
        return { ...state, holder: event.data.instance, leaseUntil: event.data.leaseUntil };
      case 'CampaignChunkQueued':
        return {
          ...state,
          chunksQueued: event.data.chunk + 1,
          messagesQueued: state.messagesQueued + event.data.messages,
          leaseUntil: event.data.leaseUntil,
        };
      case 'CampaignExpanded':
        return { ...state, expandedAt: event.data.at, holder: null };
      case 'CampaignCanceled':
        return {
          ...state,
          canceledAt: event.data.at,
          holder: event.data.instance,
          leaseUntil: event.data.leaseUntil,
        };
      case 'CampaignCancelFinished':
        return { ...state, cancelFinishedAt: event.data.at, holder: null };
      default:
        return state;
    }
  },
};

type Decision = Result<CampaignEvent[], DomainError>;

export const campaignMissing = (param?: string) => notFound('campaign', param);

export const isCampaignOf = (
  state: Campaign,
  walletId: string,
): state is Campaign & { created: CampaignCreatedData } =>
  state.created !== null && state.created.walletId === walletId;

/** Still to be done by some process: its messages written, or (canceled) its SCHEDULED ones canceled. */
export const needsWork = (state: Campaign): boolean =>
  state.created !== null &&
  (state.canceledAt === null ? state.expandedAt === null : state.cancelFinishedAt === null);

/** SCHEDULED until its send_at: only then can it be canceled. */
export const isScheduled = (state: Campaign, now: Date): boolean =>
  state.created?.sendAt != null && Date.parse(state.created.sendAt) > now.getTime();

export function createCampaign(state: Campaign, data: CampaignCreatedData): Decision {
  if (state.created !== null) return ok([]);
  return ok([{ type: 'CampaignCreated', data }]);
}

export interface TakeCampaign {
  readonly instance: string;
  readonly now: Date;
  readonly leaseMs: number;
  /** The holder's heartbeat says it died: its lease need not run out first. */
  readonly holderDead: boolean;
}

/** Whether this process may work on the campaign now: work is left, and nobody else holds a live lease. */
export function mayTake(state: Campaign, cmd: TakeCampaign): boolean {
  if (!needsWork(state)) return false;
  if (state.holder === null || state.holder === cmd.instance || cmd.holderDead) return true;
  return state.leaseUntil === null || Date.parse(state.leaseUntil) <= cmd.now.getTime();
}

const leaseUntil = (now: Date, leaseMs: number) => new Date(now.getTime() + leaseMs).toISOString();

/** Takes (or takes over, or renews) the campaign's work: nothing when it is done or another holds it. */
export function takeCampaign(state: Campaign, cmd: TakeCampaign): Decision {
  if (!mayTake(state, cmd)) return ok([]);
  return ok([
    {
      type: 'CampaignTaken',
      data: {
        instance: cmd.instance,
        leaseUntil: leaseUntil(cmd.now, cmd.leaseMs),
        at: cmd.now.toISOString(),
      },
    },
  ]);
}

const lost = () =>
  new DomainError('conflict', 'campaign_taken', 'Another process works on this campaign now');

/**
 * The next chunk written as messages, by its holder: recorded at the stream's revision with the
 * messages themselves, so a chunk is written once. The last chunk also records CampaignExpanded.
 */
export function queueChunk(
  state: Campaign,
  cmd: { instance: string; chunk: number; messages: number; now: Date; leaseMs: number },
): Decision {
  const created = state.created;
  if (created === null) return err(campaignMissing());
  if (state.holder !== cmd.instance || state.canceledAt !== null || state.expandedAt !== null)
    return err(lost());
  if (cmd.chunk !== state.chunksQueued) return err(lost());
  const at = cmd.now.toISOString();
  const events: CampaignEvent[] = [
    {
      type: 'CampaignChunkQueued',
      data: {
        chunk: cmd.chunk,
        messages: cmd.messages,
        instance: cmd.instance,
        leaseUntil: leaseUntil(cmd.now, cmd.leaseMs),
        at,
      },
    },
  ];
  if (cmd.chunk === created.chunks - 1) events.push({ type: 'CampaignExpanded', data: { at } });
  return ok(events);
}

/**
 * The merchant's cancel (API.md: a campaign's SCHEDULED messages): only before its send_at, and
 * once; asked again it records nothing and the campaign is answered as it is. The canceling
 * process takes the work over (expansion stops: the expander's next chunk fails on the revision).
 */
export function cancelCampaign(
  state: Campaign,
  cmd: { walletId: string; instance: string; now: Date; leaseMs: number },
): Decision {
  if (!isCampaignOf(state, cmd.walletId)) return err(campaignMissing('id'));
  if (state.canceledAt !== null) return ok([]);
  if (!isScheduled(state, cmd.now)) {
    return err(
      new DomainError(
        'conflict',
        'campaign_not_cancelable',
        'Only a campaign scheduled for later can be canceled; this one is already sending or sent',
      ),
    );
  }
  return ok([
    {
      type: 'CampaignCanceled',
      data: {
        instance: cmd.instance,
        leaseUntil: leaseUntil(cmd.now, cmd.leaseMs),
        at: cmd.now.toISOString(),
      },
    },
  ]);
}

/** Every SCHEDULED message of the canceled campaign is canceled and its hold released. */
export function finishCancel(state: Campaign, cmd: { instance: string; now: Date }): Decision {
  if (state.canceledAt === null || state.cancelFinishedAt !== null) return ok([]);
  if (state.holder !== cmd.instance) return err(lost());
  return ok([{ type: 'CampaignCancelFinished', data: { at: cmd.now.toISOString() } }]);
}
