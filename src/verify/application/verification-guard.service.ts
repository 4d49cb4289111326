import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, Clock } from '../../shared/clock';
import { fold } from '../../shared/decider';
import { AggregateStore, SnapshotCodec } from '../../shared/event-store/aggregate-store';
import { ok } from '../../shared/result';
import {
  admit,
  GuardEvent,
  guardDecider,
  GuardLimit,
  GuardState,
  returnAllowance,
  verificationGuardStream,
} from '../domain/verification-guard.decider';
import { VERIFY_OPTIONS, VerifyOptions } from '../verify.options';

export type Admission =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly limit: GuardLimit; readonly retryAfterSeconds: number };

type Request =
  | { readonly kind: 'admit'; readonly verificationId: string; readonly to: string }
  | { readonly kind: 'return'; readonly verificationId: string };

interface Waiting {
  readonly request: Request;
  readonly resolve: (admission: Admission) => void;
  readonly reject: (error: unknown) => void;
}

/** The guard's state is an hour of starts: a snapshot every so often keeps a load that short. */
const guardSnapshots: SnapshotCodec<GuardState> = {
  every: 200,
  encode: (state) => state,
  decode: (data) => data as GuardState,
};

/** Requests decided together in one append, at most. */
const MAX_BATCH = 256;

/**
 * The fraud guard's stream per wallet, decided at its expected revision: what keeps the caps
 * exact across processes sharing a store (a conflict decides again on the fresh state). Within
 * this process the requests for one wallet queue up while its previous append is written, and
 * are then decided together against the same state and recorded in one append, so a busy wallet
 * costs one commit per batch rather than a conflict per request.
 */
@Injectable()
export class VerificationGuard {
  private readonly queues = new Map<string, Waiting[]>();

  constructor(
    private readonly aggregates: AggregateStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(VERIFY_OPTIONS) private readonly options: VerifyOptions,
  ) {}

  /** Allowed (recorded), or refused (the refusal recorded too). */
  admit(walletId: string, verificationId: string, to: string): Promise<Admission> {
    return this.enqueue(walletId, { kind: 'admit', verificationId, to });
  }

  /** The start's SMS was never sent: it counts no more. */
  async giveBack(walletId: string, verificationId: string): Promise<void> {
    await this.enqueue(walletId, { kind: 'return', verificationId });
  }

  private enqueue(walletId: string, request: Request): Promise<Admission> {
    return new Promise<Admission>((resolve, reject) => {
      const queue = this.queues.get(walletId);
      if (queue) return void queue.push({ request, resolve, reject });
      this.queues.set(walletId, [{ request, resolve, reject }]);
      void this.drain(walletId);
    });
  }

  /** Decides and records what waits for the wallet, a batch at a time, until nothing does. */
  private async drain(walletId: string): Promise<void> {
    for (;;) {
      const queue = this.queues.get(walletId) ?? [];
      if (queue.length === 0) {
        this.queues.delete(walletId);
        return;
      }
      const batch = queue.splice(0, MAX_BATCH);
      try {
        const answers = await this.decide(
          walletId,
          batch.map((w) => w.request),
        );
        batch.forEach((w, i) => w.resolve(answers[i]));
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
  }

  private async decide(walletId: string, requests: readonly Request[]): Promise<Admission[]> {
    let answers: Admission[] = [];
    const limits = this.options.limits;
    const recorded = await this.aggregates.handle(
      verificationGuardStream(walletId),
      guardDecider,
      (state) => {
        // Decided again from scratch on a conflict: the answers are those of the append that lands.
        answers = [];
        const now = this.clock.now();
        const events: GuardEvent[] = [];
        let current = state;
        for (const request of requests) {
          const decided =
            request.kind === 'admit'
              ? admit(current, {
                  walletId,
                  verificationId: request.verificationId,
                  to: request.to,
                  now,
                  limits,
                })
              : returnAllowance(current, { verificationId: request.verificationId, now });
          const refusal = decided.find((e) => e.type === 'VerificationRefused');
          answers.push(
            refusal?.type === 'VerificationRefused'
              ? {
                  allowed: false,
                  limit: refusal.data.limit,
                  retryAfterSeconds: refusal.data.retryAfterSeconds,
                }
              : { allowed: true },
          );
          current = fold(guardDecider, decided, current);
          events.push(...decided);
        }
        return ok(events);
      },
      { snapshots: guardSnapshots },
    );
    if (!recorded.ok) throw recorded.error;
    return answers;
  }
}
