import { setMaxListeners } from 'node:events';
import { type Clock, monotonicNow } from '../base/clock.js';
import { ThrottledTooLongError } from '../base/errors.js';

/** Quiet time after a 429 before the pace is raised again, and between raises. */
const quietBeforeRaiseMs = 3_000;
const raiseEveryMs = 1_000;
/** How far under a measured limit the pace is kept: room for the bunching of timers and GC pauses. */
const margin = 0.98;
/**
 * The stretch a learned limit's worth of starts is held to: a second and the margin, widened by a step (up to the
 * widest) for each 429 that came while the starts held to it, one under the limit (requests reach the platform later
 * than they start, unevenly, on a busy machine): keeping the count and widening costs ~1.5%, a count one lower 5%.
 */
const heldSpanMs = 1000 / margin;
const heldSpanStepMs = 15;
const widestHeldSpanMs = 1100;
/** Widenings a learned limit gets before a count one under it is taken as the limit (it was learned too high). */
const wideningsPerLimit = 3;
/**
 * Quiet time at the learned limit after which the limit itself is probed again (the platform may have raised it).
 * Each probe costs a 429 and its Retry-After, so the quiet time doubles after each probe refused at the limit it
 * started from, up to the longest; a 429 that shows the limit moved brings it back to the first.
 */
const quietBeforeProbingLimitMs = 30_000;
const longestQuietBeforeProbingMs = 300_000;
/** Request starts remembered for windowOpensAt: a learned limit above this is not held to a window. */
const maxRememberedStarts = 1024;
/**
 * How long the start times of accepted requests are kept: the allowance is counted over the second before the
 * refused request started, which is its latency (and the answers' latencies) before its 429 arrives.
 */
const successHorizonMs = 10_000;

/** A pause a log without --verbose is told of: shorter ones are the pacer's everyday work. */
const announcedPauseMs = 10_000;

/**
 * The pace under which a run says so once, even with --quiet: one request every 5 s. A store allowing 20 or 30 a
 * minute is paced above it; a pace below it makes a night's push of thousands of requests last hours, which a cron
 * log said nothing of (a user test).
 */
export const slowPaceFloor = 0.2;

/**
 * The longest stretch of nothing but 429s a bulk run waits out (the pacer's `givingUpAfterMs`): from the first 429
 * after the platform last accepted a request, no pause is begun that would end past it; the run stops instead. Each request's own count of 429s
 * (src/platform/http-client.ts) let a store that throttles for ever keep a nightly run going for hours, sending
 * nothing, as the requests in flight took turns (a user test: 17.7 min with Retry-After 1, ~9 h with 60). Ten
 * minutes is two of the longest Retry-After b2bctl honours (5 minutes): an everyday wave of 429s never comes near.
 */
export const longestRefusalMs = 600_000;

/**
 * What the 429 that ended the waiting asked, in the line that stops the run: a Retry-After that would end past the
 * longest wait, or none at all, whose "asked to wait 0 s more: past the 10 minutes" was neither (a user test).
 */
function moreWait(retryAfterMs: number | undefined, givingUpAfterMs: number): string {
  const longest = `${givingUpAfterMs / 60_000} minutes`;
  return retryAfterMs === undefined
    ? `without saying how long to wait; that is the ${longest}`
    : `and asked to wait ${Math.ceil(retryAfterMs / 1000)} s more: past the ${longest}`;
}

/**
 * Whether the count of the 429 that ended a check of a floor (see Pacer.checkFloor) leaves the floor as the limit: a
 * check only raises it. A count under it is where the platform's second fell; one over, from a floor of 10 (10% or
 * less), requests that reached the platform closer together than they started (see Pacer.learn). Under 10, one more
 * is the allowance: a floor of 4 kept against a count of 5 held 80% of it (a user test).
 */
function floorStands(floor: number, counted: number): boolean {
  return counted <= floor + (floor >= 10 ? 1 : 0);
}

/**
 * Spaces request starts to a requests-per-second pace and adapts to the platform. A 429 pauses every
 * request for its Retry-After and sets the pace to 98% of what the platform accepted in the last
 * second, which it remembers as the limit; quiet stretches raise the pace back towards the requested
 * rate, but not past the learned limit until it has been quiet there for a while. Once a limit is learned,
 * no second holds more request starts than it, however late the timers fire; a 429 one under it widens that second
 * a little instead (the requests reached the platform closer together than they started). A 429 in the run's first
 * second teaches only a floor (the platform's window may hold requests sent before the run), checked at once.
 */
export class Pacer {
  private rate: number | undefined;
  private learnedLimit = Number.POSITIVE_INFINITY;
  private nextSlotAt = 0;
  private pausedUntil = 0;
  private lastThrottleAt = Number.NEGATIVE_INFINITY;
  private lastRaiseAt = Number.NEGATIVE_INFINITY;
  private lastPauseEndedAt = Number.NEGATIVE_INFINITY;
  private quietBeforeProbingMs = quietBeforeProbingLimitMs;
  private heldSpanMs = heldSpanMs;
  private widenings = 0;
  /** The learned limit a probe in progress started from; undefined when not probing. */
  private probedFrom: number | undefined;
  /** When the requests accepted lately started (or were answered, when the caller does not say), oldest first. */
  private readonly recentSuccesses: number[] = [];
  /** When the latest requests started, for windowOpensAt. */
  private readonly starts: number[] = [];
  /**
   * The wave of 429s the limit was last learned from: the accepted requests it counted, the pace before the
   * cut, and the second it counted over (from `since` to when the refused request started). A request started
   * in that second and answered after the 429 was accepted in it too (see succeeded).
   */
  private wave:
    | {
        accepted: number;
        rateBefore: number;
        since: number;
        refusedStartedAt: number;
        probedFrom?: number;
        /** The floor a check ended at (see checkFloor): late answers lift the limit only past it (floorStands). */
        floor?: number;
      }
    | undefined;
  throttles = 0;
  /** When the first request started: a 429 within a second of it may count requests sent before the run. */
  private firstStartedAt: number | undefined;
  /** The learned limit is only a floor (the count of a 429 in the run's first second): see checkFloor. */
  private checkingFloor = false;
  /** When the platform's unbroken stretch of 429s began (none accepted since); undefined while it accepts. */
  private refusingSince: number | undefined;
  /** The 429s of that stretch. */
  private refusedInARow = 0;
  /** Set once the 429s outlasted givingUpAfterMs: every turn is refused with it, waiting ones at once. */
  private givenUp: ThrottledTooLongError | undefined;
  private readonly stopWaiting = new AbortController();
  /** Aborted when a check of a floor raises the pace: the turns given at the slower one are given again. */
  private paceRaised = new AbortController();
  /** Whether the pace fell below slowPaceFloor and the run was told (once). */
  private saidSlow = false;

  private readonly clock: Clock;
  /** The requested pace (`--rate`); undefined for as fast as concurrency allows. */
  private readonly targetRate: number | undefined;
  /** Told of every change of pace, for --verbose. */
  private readonly report: (message: string) => void;
  /** Told of a pause long enough to look like a hang (a Retry-After of minutes), for the log without --verbose. */
  private readonly announce: (message: string) => void;
  /**
   * How long the platform may accept nothing, only 429s, before every turn is refused (longestRefusalMs for a bulk
   * run); undefined for never: `orders poll --watch` waits a platform out, its next cycle on this same pacer.
   */
  private readonly givingUpAfterMs?: number;
  /** Told once when 429s bring the pace below slowPaceFloor, for the log even with --quiet. */
  private readonly slowed: (message: string) => void;
  constructor(
    clock: Clock,
    targetRate: number | undefined,
    report: (message: string) => void = () => {},
    announce: (message: string) => void = () => {},
    givingUpAfterMs?: number,
    slowed: (message: string) => void = () => {},
  ) {
    this.clock = clock;
    this.targetRate = targetRate;
    this.report = report;
    this.announce = announce;
    this.givingUpAfterMs = givingUpAfterMs;
    this.slowed = slowed;

    this.rate = targetRate;
    // Every request waiting for its turn listens on it: --concurrency of them is the design, not a leak.
    setMaxListeners(0, this.stopWaiting.signal);
    setMaxListeners(0, this.paceRaised.signal);
  }

  /**
   * The pacer's time: the monotonic clock, never the wall clock, whose step back (NTP, a VM restored) left every turn
   * given before it in the future, and a `--watch` silent for as long as the step (a user test).
   */
  private elapsed(): number {
    return monotonicNow(this.clock);
  }

  /** A time of the pacer's as the wall clock says it, for a message. */
  private wallTime(elapsedMs: number): string {
    return new Date(this.clock.now() - (this.elapsed() - elapsedMs)).toISOString();
  }

  /** The pace in force now, in requests per second; undefined when unpaced. */
  get currentRate(): number | undefined {
    return this.rate;
  }

  /**
   * Waits for this request's turn; returns the time it starts, for succeeded(). Refused with ThrottledTooLongError,
   * at once, once the platform has refused everything for givingUpAfterMs.
   */
  async take(signal?: AbortSignal): Promise<number> {
    const waiting = signal ? AbortSignal.any([signal, this.stopWaiting.signal]) : this.stopWaiting.signal;
    const sleep = async (ms: number) => {
      try {
        await this.clock.sleep(ms, waiting);
      } catch (error) {
        throw this.givenUp ?? error;
      }
    };
    for (;;) {
      if (this.givenUp) throw this.givenUp;
      const now = this.elapsed();
      // A pause is waited out before a turn is given: the pace may change by its end (the answers after a 429
      // tell the allowance), and turns given at the pace of the cut (0.5/s after a first 429 that came before
      // any accepted answer) kept every request 2 s apart for the next minute after the pace was up (review).
      if (this.pausedUntil > now) {
        await sleep(this.pausedUntil - now);
        continue;
      }
      const interval = this.rate ? 1000 / this.rate : 0;
      const turn = Math.max(now, this.nextSlotAt);
      this.nextSlotAt = turn + interval;
      if (turn > now && !(await this.waitForTurn(turn - now, waiting))) continue;
      // Held to the window (see windowOpensAt) without moving the turns of the others: the pace catches up.
      for (let opens = this.windowOpensAt(); this.elapsed() < opens; opens = this.windowOpensAt())
        await sleep(opens - this.elapsed());
      const started = this.elapsed();
      // A 429 came while this request waited for its turn, given at the old pace: going at it would meet the same
      // full window, so it takes a new turn after the pause (docs/decisions/0004-pacer-learning.md).
      if (started < this.pausedUntil) continue;
      this.firstStartedAt ??= started;
      this.starts.push(started);
      if (this.starts.length > 2 * maxRememberedStarts) this.starts.splice(0, this.starts.length - maxRememberedStarts);
      return started;
    }
  }

  /**
   * Sleeps until a turn; false when a check of a floor raised the pace meanwhile: with --concurrency requests each
   * given a turn a second apart at a floor of 1, the checks' raises took 8 s to be felt (a user test).
   */
  private async waitForTurn(ms: number, waiting: AbortSignal): Promise<boolean> {
    const raised = this.paceRaised.signal;
    try {
      await this.clock.sleep(ms, AbortSignal.any([waiting, raised]));
      return true;
    } catch (error) {
      if (raised.aborted && !waiting.aborted) return false;
      throw this.givenUp ?? error;
    }
  }

  /**
   * The earliest a request may start so that no stretch of a second (and the margin) holds more starts than the
   * learned limit, counted on the times requests really started: a turn taken late does not move the turns after
   * it, which would otherwise bunch up into the platform's window.
   */
  private windowOpensAt(): number {
    // `--rate N` holds any second to N starts too: spaced at 1/N alone, the N+1st started exactly a second after the
    // first, and reached the platform a little sooner, so N+1 came within a second (a user test). A fractional rate
    // spaced evenly already holds a second to its next whole number.
    const requested = this.targetRate === undefined ? Number.POSITIVE_INFINITY : Math.ceil(this.targetRate);
    const limit = Math.max(1, Math.min(Math.floor(this.learnedLimit), requested));
    if (limit > maxRememberedStarts) return 0;
    const earlier = this.starts[this.starts.length - limit];
    return earlier === undefined ? 0 : earlier + this.heldSpanMs;
  }

  /** An answer that was not a 429, to a request that started at `startedAt` (take's answer). */
  succeeded(startedAt?: number): void {
    const now = this.elapsed();
    const started = startedAt ?? now;
    // The run's first request reaches the platform later than it starts (its connection and HTTP parser are set up on
    // it: 100 ms on a loaded machine), and the next ones came that much closer to it than they started: N+1 within a
    // second at --rate N (a user test). Its answer, the latest it can have arrived, stands for its start in the
    // seconds held (windowOpensAt); a second's wait once a run at most.
    if (startedAt !== undefined && startedAt === this.firstStartedAt && this.starts[0] === startedAt)
      this.starts[0] = now;
    this.refusingSince = undefined;
    this.refusedInARow = 0;
    this.recentSuccesses.push(started);
    this.forgetBefore(now - successHorizonMs);
    if (this.wave && started >= this.wave.since && started <= this.wave.refusedStartedAt) this.acceptedLate(this.wave);
    if (this.checkingFloor) return this.checkFloor(now);
    if (
      this.rate === undefined ||
      now - this.lastThrottleAt < quietBeforeRaiseMs ||
      now - this.lastRaiseAt < raiseEveryMs
    )
      return;
    this.lastRaiseAt = now;
    if (now - this.lastThrottleAt >= this.quietBeforeProbingMs && Number.isFinite(this.learnedLimit)) {
      this.probedFrom ??= this.learnedLimit;
      this.learnedLimit *= 1.05;
    }
    const ceiling = Math.min(this.targetRate ?? Number.POSITIVE_INFINITY, this.paceFor(this.learnedLimit));
    const raised = Math.max(this.rate, Math.min(ceiling, this.rate * 1.02));
    if (raised !== this.rate) this.report(`pace: ${raised.toFixed(2)} requests/s after a quiet stretch`);
    this.rate = raised;
  }

  /**
   * A 429: everyone waits `retryAfterMs`, and the pace goes to 98% of the platform's allowance: the
   * answers accepted since the last pause ended (at most a second back). Counted, not divided by the
   * time: against a per-second window the count before the 429 is the allowance, however fast it came.
   */
  throttled(retryAfterMs: number, startedAt?: number, asked = true): void {
    const now = this.elapsed();
    this.throttles++;
    this.refusingSince ??= now;
    this.refusedInARow++;
    if (this.givingUpAfterMs !== undefined && now + retryAfterMs - this.refusingSince > this.givingUpAfterMs)
      return this.giveUp(now, asked ? retryAfterMs : undefined, this.givingUpAfterMs);
    // Measured from now when no pause is running: a first 429's pause of a second is everyday work too.
    if (now + retryAfterMs - Math.max(now, this.pausedUntil) >= announcedPauseMs)
      this.announce(
        `the platform asked to wait ${Math.round(retryAfterMs / 1000)} s (HTTP 429, Retry-After); nothing is sent until ${this.wallTime(now + retryAfterMs)}.`,
      );
    this.pausedUntil = Math.max(this.pausedUntil, now + retryAfterMs);
    const refusedStartedAt = startedAt ?? now;
    // One cut per wave of 429s: the others of the wave, and those of requests sent before its cut (on their way
    // when it came, answered after its pause), only extend the pause: they tell nothing of the pace since.
    if (now - this.lastThrottleAt < retryAfterMs || refusedStartedAt < this.lastThrottleAt) return;
    this.lastThrottleAt = now;
    this.forgetBefore(now - successHorizonMs);
    // What the platform accepted in the second before it refused this request, counted by start, not answer
    // (answers on the way overcount), and only since the last pause ended (docs/decisions/0004-pacer-learning.md).
    const since = Math.max(refusedStartedAt - 1000, this.lastPauseEndedAt);
    let counted = 0;
    for (const started of this.recentSuccesses) if (started >= since && started <= refusedStartedAt) counted++;
    this.cut(counted, since, refusedStartedAt, retryAfterMs);
    this.sayWhenSlow();
  }

  /** Says once when the pace fell below slowPaceFloor (and not for a --rate asked below it). */
  private sayWhenSlow(): void {
    if (this.saidSlow || this.rate === undefined || this.rate >= slowPaceFloor) return;
    if (this.targetRate !== undefined && this.targetRate <= this.rate) return;
    this.saidSlow = true;
    this.slowed(
      `the platform's 429s (Too Many Requests) have slowed the pace to one request every ${Math.round(1000 / this.rate / 100) / 10} s, below one every ${1 / slowPaceFloor} s; it rises again while the platform accepts (--verbose shows each change), and --rate holds a store's documented limit from the start.`,
    );
  }

  /** The pace after the first 429 of a wave, which `counted` accepted requests started in the second before. */
  private cut(counted: number, since: number, refusedStartedAt: number, retryAfterMs: number): void {
    const { probedFrom, quietBeforeProbingMs, checkingFloor } = this;
    const floor = checkingFloor && probedFrom !== undefined ? Math.floor(probedFrom) : undefined;
    const accepted = floor !== undefined && floorStands(floor, counted) ? floor : counted;
    const unpaced = this.rate === undefined;
    const current = this.rate ?? Math.max(1, accepted);
    this.lastPauseEndedAt = this.pausedUntil;
    this.probedFrom = undefined;
    this.quietBeforeProbingMs = quietBeforeProbingLimitMs;
    // A count whose second reaches back before the run's first request is only a floor (see checkFloor).
    this.checkingFloor = this.firstStartedAt !== undefined && since < this.firstStartedAt;
    const gap = this.sinceLastAccepted(refusedStartedAt);
    if (!this.checkingFloor && counted <= 1 && retryAfterMs > heldSpanMs && gap !== undefined) {
      this.wave = undefined;
      return this.learnSpacing(gap, retryAfterMs, probedFrom, quietBeforeProbingMs);
    }
    // An unpaced run (no --rate, the default) sends its first requests all at once: the 429 can come back before
    // any accepted answer, and then the allowance is only known from the answers that follow. They lift the pace
    // as they come, up to the count (see acceptedLate); without them it stayed at 0.5/s for minutes (review).
    this.wave = unpaced
      ? { accepted: counted, rateBefore: Number.POSITIVE_INFINITY, since, refusedStartedAt, floor }
      : undefined;
    // A count over a whole second is the allowance, however far under the pace (--rate 200 against a limit of
    // 20 came down 2% a wave); over a shorter stretch since a pause, only a count near the pace is trusted.
    if (accepted > 0 && (accepted >= current / 4 || refusedStartedAt - since >= 1000)) {
      this.wave ??= { accepted: counted, rateBefore: current, since, refusedStartedAt, floor };
      this.wave.probedFrom = probedFrom;
      this.learn(accepted, probedFrom, quietBeforeProbingMs);
      // A floor confirmed is no probe refused: the next probe comes after the first quiet time.
      if (checkingFloor) this.quietBeforeProbingMs = quietBeforeProbingLimitMs;
      this.rate = Math.max(0.5, Math.min(current, this.paceFor(this.learnedLimit)));
    } else if (accepted === 0 && refusedStartedAt - since >= 250) {
      this.rate = Math.max(0.5, current / 2);
    } else {
      // Too few answers since the pause to tell the allowance: step down and let the next wave tell.
      this.rate = Math.max(0.5, current * margin);
    }
    this.report(
      `pace: ${this.rate.toFixed(2)} requests/s after a 429 (${counted} accepted in the ${refusedStartedAt - since} ms before it${floor === undefined ? '' : `, the limit checked was ${floor}`}; pausing ${retryAfterMs} ms)`,
    );
  }

  /**
   * A 429 with at most one request accepted in the second before it, asking to wait longer than a second: the
   * platform allows fewer than a request a second (1 per 2 s, 1 per 3 s), which no count of a second can tell, and
   * the pace stayed near a request a second, half the allowance, a 429 for each request accepted (a user test). The
   * spacing can tell: the platform refused a request `gap` after the last one it accepted and asked for Retry-After
   * more, so one every gap + Retry-After is taken (exactly the platform's window when its Retry-After is the time
   * left in it). A probe refused sooner after the last accepted request than the spacing it started from confirms it.
   */
  private learnSpacing(
    gap: number,
    retryAfterMs: number,
    probedFrom: number | undefined,
    quietBeforeProbingMs: number,
  ): void {
    // A request refused sooner after the last accepted one than the spacing learned (a turn given at the pace before,
    // or a probe) says nothing new: the spacing stands, and a probe refused so waits longer before the next.
    const learned = probedFrom ?? this.learnedLimit;
    if (learned < 1 && 1000 / learned > gap) {
      this.learnedLimit = learned;
      if (probedFrom !== undefined)
        this.quietBeforeProbingMs = Math.min(longestQuietBeforeProbingMs, 2 * quietBeforeProbingMs);
    } else if (learned < 1) {
      // Refused at the spacing learned, or past it: the gap is this run's own pace, and gap + Retry-After fed on itself,
      // a store refusing one request in seven whatever the pace taking it to 11 s a request and on (a user test). The
      // spacing grows to the Retry-After at most (docs/decisions/0004-pacer-learning.md).
      this.learnCount(Math.min(learned, 1000 / retryAfterMs));
    } else this.learnCount(Math.min(1, 1000 / (gap + retryAfterMs)));
    this.rate = Math.min(this.rate ?? Number.POSITIVE_INFINITY, this.paceFor(this.learnedLimit));
    this.report(
      `pace: ${this.rate.toFixed(3)} requests/s after a 429 (the platform refused a request ${Math.round(gap)} ms after the last it accepted and asked to wait ${retryAfterMs} ms: fewer than one a second)`,
    );
  }

  /**
   * How long before a refused request the last accepted one started, when that was within the slowest pace's turn
   * (2 s, and the margin), or a spacing is already learned (a probe of it): a refusal further from any accepted
   * request says nothing of the spacing the platform takes.
   */
  private sinceLastAccepted(refusedStartedAt: number): number | undefined {
    const lastAccepted = this.recentSuccesses.filter((started) => started < refusedStartedAt).at(-1);
    const gap = lastAccepted === undefined ? undefined : refusedStartedAt - lastAccepted;
    return gap !== undefined && (gap <= 2 * heldSpanMs || this.learnedLimit < 1) ? gap : undefined;
  }

  /**
   * Raises a limit learned in the run's first second by a request a second, from the end of its pause, until a 429.
   * The platform's window may have held requests b2bctl did not send when that second began (the previous command
   * of a nightly script, another job of the same account), so its count may be short of the allowance: taken as
   * the allowance, it was 1 to 3 of 5 after a run that had just ended, held for 45 s, then probed 2% a second (a user
   * test). The 429 that ends the check counts a second of this run's requests only (see cut). A floor that was right
   * costs that 429 and its pause.
   */
  private checkFloor(now: number): void {
    if (this.rate === undefined || now < this.pausedUntil || now - this.lastRaiseAt < raiseEveryMs) return;
    this.lastRaiseAt = now;
    // Nothing accepted in that second (a window full of others' requests) is a floor of none.
    const checked = Number.isFinite(this.learnedLimit) ? Math.floor(this.learnedLimit) : 0;
    this.probedFrom ??= checked;
    const limit = checked + 1;
    const raised = Math.min(this.targetRate ?? Number.POSITIVE_INFINITY, this.paceFor(limit));
    // The requested pace (--rate) is under the raised limit: the platform cannot refuse it for that limit.
    if (raised <= this.rate) {
      this.checkingFloor = false;
      this.probedFrom = undefined;
      return;
    }
    this.learnedLimit = limit;
    this.rate = raised;
    // The turns given at the slower pace are given again, from now, at this one.
    this.nextSlotAt = Math.min(this.nextSlotAt, now);
    const turnsGiven = this.paceRaised;
    this.paceRaised = new AbortController();
    setMaxListeners(0, this.paceRaised.signal);
    turnsGiven.abort();
    this.report(`pace: ${raised.toFixed(2)} requests/s, checking the limit counted in the run's first second`);
  }

  /** Ends the waiting: the platform has accepted nothing since refusingSince, and asks for a wait past the longest. */
  private giveUp(now: number, retryAfterMs: number | undefined, givingUpAfterMs: number): void {
    if (this.givenUp) return;
    const since = this.refusingSince ?? now;
    this.givenUp = new ThrottledTooLongError(
      `The platform answered HTTP 429 (Too Many Requests) to every request since ${this.wallTime(since)} (${this.refusedInARow} times in ${Math.round((now - since) / 1000)} s) ${moreWait(retryAfterMs, givingUpAfterMs)} b2bctl waits for a platform that accepts nothing. None of those requests was applied.`,
    );
    this.stopWaiting.abort(this.givenUp);
  }

  /**
   * The limit after a wave that counted `accepted` in the second before its refused request. A count one under the
   * limit is what a full window shows when the platform counts arrivals a little closer together than they started
   * (a busy machine): a probe refused there confirms the limit it started from, and probes later next time; outside a
   * probe the limit keeps its count and the stretch it is held to widens, a few times, before the count is taken as
   * the limit (it was learned too high). Otherwise the count is the limit; the next probe after the first quiet time.
   */
  private learn(accepted: number, probedFrom: number | undefined, quietBeforeProbingMs: number): void {
    const near = (limit: number) => accepted <= limit && accepted >= Math.floor(limit) - 1;
    if (probedFrom !== undefined && near(probedFrom)) {
      this.learnedLimit = probedFrom;
      this.quietBeforeProbingMs = Math.min(longestQuietBeforeProbingMs, 2 * quietBeforeProbingMs);
    } else if (probedFrom === undefined && accepted < this.learnedLimit && near(this.learnedLimit)) {
      // Widening did not help: the limit was learned too high, and the stretch goes back to a second and the margin.
      if (this.widenings++ >= wideningsPerLimit || this.heldSpanMs >= widestHeldSpanMs) {
        this.heldSpanMs = heldSpanMs;
        return this.learnCount(accepted);
      }
      this.heldSpanMs = Math.min(widestHeldSpanMs, this.heldSpanMs + heldSpanStepMs);
      this.quietBeforeProbingMs = quietBeforeProbingMs;
      this.report(
        `limit ${this.learnedLimit} kept, held to ${this.heldSpanMs.toFixed(0)} ms: requests arrived closer together than they started`,
      );
    } else this.learnCount(accepted);
  }

  private learnCount(accepted: number): void {
    this.learnedLimit = accepted;
    this.widenings = 0;
  }

  /**
   * A request started in the second a wave's allowance was counted over, accepted after its 429: the platform let
   * it into the same window, so the allowance is one more.
   */
  private acceptedLate(wave: NonNullable<Pacer['wave']>): void {
    wave.accepted++;
    if (wave.floor !== undefined && floorStands(wave.floor, wave.accepted)) return;
    this.learnedLimit = wave.accepted;
    // The probe found more than the limit it started from after all: the platform raised it.
    if (wave.probedFrom !== undefined && wave.accepted > wave.probedFrom)
      this.quietBeforeProbingMs = quietBeforeProbingLimitMs;
    const rate = Math.max(0.5, Math.min(wave.rateBefore, this.paceFor(wave.accepted)));
    // The count only ever adds up: a cut that learned less from fewer answers (halved, or stepped down) is lifted.
    if (rate <= (this.rate ?? 0)) return;
    this.rate = rate;
    this.report(`pace: ${rate.toFixed(2)} requests/s (${wave.accepted} accepted in that second after all)`);
  }

  /** The pace that starts `limit` requests in each held stretch: 98% of it until a stretch is widened. */
  private paceFor(limit: number): number {
    return this.heldSpanMs === heldSpanMs ? limit * margin : (limit * 1000) / this.heldSpanMs;
  }

  private forgetBefore(time: number): void {
    let stale = 0;
    while (stale < this.recentSuccesses.length && (this.recentSuccesses[stale] as number) < time) stale++;
    if (stale > 0) this.recentSuccesses.splice(0, stale);
  }
}
