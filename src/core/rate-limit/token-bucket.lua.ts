/**
 * The bucket at KEYS[i] refilled to `now`: its tokens (a new bucket starts full) plus rate × the
 * milliseconds since its last update, at most the burst. Returns tokens and the update's time.
 * Both scripts below start with it.
 */
const REFILLED = `
local function refilled(key, now, rate, burst)
  local state = redis.call('HMGET', key, 't', 'ts')
  local tokens = tonumber(state[1])
  local ts = tonumber(state[2])
  if tokens == nil or ts == nil then
    tokens = burst
    ts = now
  end
  if now > ts then
    tokens = math.min(burst, tokens + (now - ts) * rate)
    ts = now
  end
  return tokens, ts
end
`;

/**
 * Token buckets in Redis, applied atomically (one script run per batch of keys).
 *
 * Each KEYS[i] is a hash {t = tokens, ts = last update in ms}. ARGV: now (ms), then per key
 * three values: hits to take, refill rate (tokens per ms), burst (bucket size).
 * The bucket refills up to the burst, then loses the hits. A process that admitted requests
 * on a stale view may take the bucket below zero: that debt is repaid from the refill, so the
 * deployment as a whole still never exceeds burst + rate × elapsed for long (floor: -burst).
 * Returns per key the tokens left × 1000 (integers survive the Lua → Redis reply conversion).
 */
export const TAKE_TOKENS_SCRIPT = `${REFILLED}
local now = tonumber(ARGV[1])
local out = {}
for i, key in ipairs(KEYS) do
  local hits = tonumber(ARGV[i * 3 - 1])
  local rate = tonumber(ARGV[i * 3])
  local burst = tonumber(ARGV[i * 3 + 1])
  local tokens, ts = refilled(key, now, rate, burst)
  tokens = math.max(-burst, tokens - hits)
  redis.call('HSET', key, 't', tostring(tokens), 'ts', tostring(ts))
  redis.call('PEXPIRE', key, math.ceil((2 * burst) / rate) + 1000)
  out[i] = math.floor(tokens * 1000)
end
return out
`;

/**
 * Failed-authentication buckets: like TAKE_TOKENS_SCRIPT with one hit per key, except that a
 * key already empty loses nothing more (a refused attempt is not charged twice) and the reply
 * says whether every bucket still had a token: 1 when the attempt is within all limits, else 0,
 * followed by the milliseconds until each bucket holds a token again.
 */
export const TAKE_FAILURE_SCRIPT = `${REFILLED}
local now = tonumber(ARGV[1])
local allowed = 1
local waits = {}
for i, key in ipairs(KEYS) do
  local rate = tonumber(ARGV[i * 2])
  local burst = tonumber(ARGV[i * 2 + 1])
  local tokens, ts = refilled(key, now, rate, burst)
  if tokens >= 1 then
    tokens = tokens - 1
    waits[i] = 0
  else
    allowed = 0
    waits[i] = math.ceil((1 - tokens) / rate)
  end
  redis.call('HSET', key, 't', tostring(tokens), 'ts', tostring(ts))
  redis.call('PEXPIRE', key, math.ceil(burst / rate) + 1000)
end
local out = { allowed }
for i = 1, #waits do
  out[i + 1] = waits[i]
end
return out
`;
