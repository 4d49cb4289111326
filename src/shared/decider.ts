import type { Result } from './result';

/** A domain event as stored: an explicit past-tense type and plain JSON data. */
export interface DomainEvent<Type extends string = string, Data extends object = object> {
  readonly type: Type;
  readonly data: Data;
}

/**
 * The shape every aggregate takes (as in Emmett): state is rebuilt by folding events with
 * `evolve`, and commands are decided against it. Both are pure.
 */
export interface Decider<State, Event extends DomainEvent> {
  initialState(): State;
  evolve(state: State, event: Event): State;
  /** Folds many events at once, where that is cheaper than one by one (a large state copied once). */
  evolveAll?(state: State, events: Iterable<Event>): State;
  /**
   * A state no command changes any more (a settled message): the aggregate store keeps none in
   * memory, so the ones still in use are not pushed out by them. A decision on one reads it again.
   */
  isFinal?(state: State): boolean;
}

/** A decision: the events to record, or the business error that refused the command. */
export type Decision<Event extends DomainEvent, Error> = Result<Event[], Error>;

export function fold<State, Event extends DomainEvent>(
  decider: Decider<State, Event>,
  events: Iterable<Event>,
  from: State = decider.initialState(),
): State {
  if (decider.evolveAll) return decider.evolveAll(from, events);
  let state = from;
  for (const event of events) state = decider.evolve(state, event);
  return state;
}

/**
 * The state a recorded decision left, when the events it appended include one of `types`
 * (say, an aggregate's final events); null for anything else (a refusal, a no-op, other
 * events). What lets whoever records an outcome count it exactly once.
 */
export function stateAfterAny<State, Event extends DomainEvent>(
  recorded: Result<{ readonly state: State; readonly events: readonly Event[] }, unknown>,
  types: ReadonlySet<Event['type']>,
): State | null {
  if (!recorded.ok || !recorded.value.events.some((event) => types.has(event.type))) return null;
  return recorded.value.state;
}
