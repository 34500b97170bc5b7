// The shared budget's Lua: one script per operation, each atomic in Redis, so every process
// of every role sees one log, one pair of queues and one pause.
//
// Keys (one hash tag per API key, so a cluster keeps them in one slot):
//   KEYS[1] log    zset grantId -> time the call counts from (see release)
//   KEYS[2] bulk   zset, the bulk subset of log (for the guaranteed share)
//   KEYS[3] qi     zset ticket -> arrival seq, interactive waiters (global FIFO)
//   KEYS[4] qb     zset ticket -> arrival seq, bulk waiters
//   KEYS[5] seq    arrival counter
//   KEYS[6] alive  zset processId -> deadline; waiters of dead processes are dropped
//   KEYS[7] pause  epoch ms until which nobody calls (a CRM 429)
//   KEYS[8] tat    bulk pacing: theoretical arrival time of the next bulk call (GCRA)
// ARGV[1] is the time in ms: empty means Redis TIME (one clock for all processes); tests pass it.

const CLOCK = `
local function clock(arg)
  if arg ~= nil and arg ~= '' then return tonumber(arg) end
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
`;

/** ARGV: now, ticket, class ('i'|'b'), processId, aliveTtlMs, keyTtlMs. Returns the arrival seq. */
export const ENQUEUE_LUA = `${CLOCK}
local now = clock(ARGV[1])
local q = ARGV[3] == 'i' and KEYS[3] or KEYS[4]
redis.call('ZADD', KEYS[6], now + tonumber(ARGV[5]), ARGV[4])
local seq = redis.call('INCR', KEYS[5])
redis.call('ZADD', q, 'NX', seq, ARGV[2])
for i = 3, 6 do redis.call('PEXPIRE', KEYS[i], ARGV[6]) end
return seq
`;

/**
 * ARGV: now, ticket, class, processId, aliveTtlMs, keyTtlMs, limit, windowMs, marginMs,
 *       bulkShareSlots, bulkIntervalMs, bulkToleranceMs, leaseMs.
 * Returns {1, 0} granted | {0, waitMs} not yet | {-1, 0} ticket unknown (caller re-enqueues).
 */
export const TRY_ACQUIRE_LUA = `${CLOCK}
local now = clock(ARGV[1])
local ticket, class, proc = ARGV[2], ARGV[3], ARGV[4]
local keyTtl = ARGV[6]
local limit, W, margin = tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9])
local share, T, tol, lease = tonumber(ARGV[10]), tonumber(ARGV[11]), tonumber(ARGV[12]), tonumber(ARGV[13])

redis.call('ZADD', KEYS[6], now + tonumber(ARGV[5]), proc)
-- A call stops counting W (+ margin) after the moment it was released (its answer came back).
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - W - margin)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - W - margin)

-- Waiters of a process that stopped heart-beating would block their queue: drop them.
local function purge(q)
  for _ = 1, 100 do
    local head = redis.call('ZRANGE', q, 0, 0)[1]
    if not head then return end
    local owner = string.match(head, '^([^|]+)|') or head
    local deadline = tonumber(redis.call('ZSCORE', KEYS[6], owner) or '0')
    if deadline >= now then return end
    redis.call('ZREM', q, head)
  end
end
purge(KEYS[3])
purge(KEYS[4])
redis.call('ZREMRANGEBYSCORE', KEYS[6], '-inf', now - 1)

local q = class == 'i' and KEYS[3] or KEYS[4]
local rank = redis.call('ZRANK', q, ticket)
if not rank then return {-1, 0} end

local paused = tonumber(redis.call('GET', KEYS[7]) or '0')
if paused > now then return {0, paused - now} end

local used = redis.call('ZCARD', KEYS[1])
local free = limit - used
local qi, qb = redis.call('ZCARD', KEYS[3]), redis.call('ZCARD', KEYS[4])
local bulkUsed = redis.call('ZCARD', KEYS[2])
local tat = math.max(tonumber(redis.call('GET', KEYS[8]) or '0'), now)
local pace = 0
if tat - tol <= now then pace = math.floor((now + tol - tat) / T) + 1 end

-- Share the free slots: bulk below its guaranteed share first (only while interactive waits),
-- then interactive, then bulk; bulk is also paced so the log stays evenly spread.
local bulkFirst = 0
if qi > 0 and bulkUsed < share then bulkFirst = math.max(0, math.min(share - bulkUsed, qb, pace, free)) end
local inter = math.max(0, math.min(qi, free - bulkFirst))
local bulk = math.max(0, math.min(qb, pace, free - inter))
local slots = class == 'i' and inter or bulk

if rank < slots then
  redis.call('ZREM', q, ticket)
  -- Until released, the call may still be on the wire: it counts until its lease ends.
  redis.call('ZADD', KEYS[1], now + lease, ticket)
  redis.call('PEXPIRE', KEYS[1], keyTtl)
  if class == 'b' then
    redis.call('ZADD', KEYS[2], now + lease, ticket)
    redis.call('PEXPIRE', KEYS[2], keyTtl)
    redis.call('SET', KEYS[8], string.format('%.3f', tat + T), 'PX', keyTtl)
  end
  return {1, 0}
end

local wait = 5
if used >= limit then
  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  wait = tonumber(first[2]) + W + margin - now + 1
end
if class == 'b' and pace == 0 then wait = math.max(wait, tat - tol - now) end
return {0, math.max(1, math.ceil(wait))}
`;

/**
 * ARGV: now, ticket, class, keyTtlMs. The answer is back, so the call reached the CRM no later
 * than now: from here it counts from now, not from its lease. A late release re-adds the
 * entry on purpose (a stalled process may have sent its call late).
 */
export const RELEASE_LUA = `${CLOCK}
local now = clock(ARGV[1])
redis.call('ZADD', KEYS[1], now, ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
if ARGV[3] == 'b' then
  redis.call('ZADD', KEYS[2], now, ARGV[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[4])
end
return now
`;

/** ARGV: now, ticket, class. A waiter that gives up leaves the queue. */
export const CANCEL_LUA = `
local q = ARGV[3] == 'i' and KEYS[3] or KEYS[4]
return redis.call('ZREM', q, ARGV[2])
`;

/** ARGV: now, pauseMs. Extends (never shortens) the shared pause; returns its end. */
export const PAUSE_LUA = `${CLOCK}
local now = clock(ARGV[1])
local untilMs = now + tonumber(ARGV[2])
local current = tonumber(redis.call('GET', KEYS[7]) or '0')
if untilMs <= current then return current end
redis.call('SET', KEYS[7], string.format('%d', untilMs), 'PX', math.ceil(tonumber(ARGV[2])) + 60000)
return untilMs
`;

/**
 * ARGV: now, windowMs, marginMs. Read-only view for ETAs and metrics:
 * {now, bulkUsed, qi, qb, pausedUntil, tat, score1, score2, ...} (live log scores, ascending).
 */
export const SNAPSHOT_LUA = `${CLOCK}
local now = clock(ARGV[1])
local horizon = '(' .. string.format('%d', now - tonumber(ARGV[2]) - tonumber(ARGV[3]))
local scores = redis.call('ZRANGEBYSCORE', KEYS[1], horizon, '+inf', 'WITHSCORES')
local out = {
  string.format('%d', now),
  redis.call('ZCOUNT', KEYS[2], horizon, '+inf'),
  redis.call('ZCARD', KEYS[3]),
  redis.call('ZCARD', KEYS[4]),
  redis.call('GET', KEYS[7]) or '0',
  redis.call('GET', KEYS[8]) or '0',
}
for i = 2, #scores, 2 do out[#out + 1] = scores[i] end
return out
`;
