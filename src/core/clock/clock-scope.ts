/** Whose time: a tenant's test mode (its test clock) or live mode (always real time). A Principal fits. */
export interface ClockScope {
  tenantId: string;
  livemode: boolean;
}

/** One tenant's test clock as processes share it: null `frozenTime` is real time. */
export interface ClockState {
  tenantId: string;
  frozenTime: Date | null;
  version: number;
}

/** PostgreSQL notification channel announcing every change of a test clock. */
export const CLOCK_CHANNEL = 'test_clock';

export function encodeClockState(state: ClockState): string {
  return JSON.stringify({ t: state.tenantId, v: state.version, f: state.frozenTime?.toISOString() ?? null });
}

export function decodeClockState(payload: string): ClockState | null {
  try {
    const raw = JSON.parse(payload) as { t?: unknown; v?: unknown; f?: unknown };
    if (typeof raw.t !== 'string' || typeof raw.v !== 'number') {
      return null;
    }
    const frozenTime = typeof raw.f === 'string' ? new Date(raw.f) : null;
    return { tenantId: raw.t, version: raw.v, frozenTime };
  } catch {
    return null;
  }
}
