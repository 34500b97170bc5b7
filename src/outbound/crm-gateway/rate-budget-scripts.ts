// The shared budget's Lua: one script per operation, each atomic in Redis, so every process
// of every role sees one log, one pair of queues and one pause.
//
// Keys (one hash tag per CRM organization, so a cluster keeps them in one slot):
//   KEYS[1] log    zset grantId -> time the call counts from (see release)
//   KEYS[2] bulk   zset, the bulk subset of log (for the guaranteed share)
//   KEYS[3] qi     zset ticket -> arrival seq, interactive waiters (global FIFO)
//   KEYS[4] qb     zset ticket -> arrival seq, bulk waiters
//   KEYS[5] seq    arrival counter
//   KEYS[6] alive  zset processId -> deadline; waiters of dead processes are dropped
//   KEYS[7] pause  epoch ms until which nobody calls (a CRM 429)
//   KEYS[8] tat    pacing: theoretical arrival time of the next call (GCRA); bulk keeps to it
//   KEYS[9] lastb  time of the last bulk grant (paces bulk's guaranteed share)
//   KEYS[10] epoch time before which nobody calls after the state was found missing (no TTL:
//                  its absence is how a FLUSHALL, a restart without persistence or a failover
//                  to an empty replica shows; see TRY_ACQUIRE)
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
 * ARGV: now, class, processId, aliveTtlMs, keyTtlMs, limit, windowMs, marginMs, bulkShareSlots,
 *       paceIntervalMs, toleranceMs, leaseMs, shareIntervalMs, coldStart (1|0), ticket1, ticket2, ...
 * Grants the given tickets (this process's oldest waiters of one class) in order, as far as
 * the budget allows, so a burst costs one round trip. Returns {granted, waitMs, lost, cold}:
 * the first `granted` tickets got a slot; if lost is 1 the next ticket was unknown (the
 * caller queues it again), else the next may retry in waitMs; cold is 1 when this call found
 * the state missing and closed the budget for one window.
 */
export const TRY_ACQUIRE_LUA = `${CLOCK}
local now = clock(ARGV[1])
local class, proc, keyTtl = ARGV[2], ARGV[3], ARGV[5]
local limit, W, margin = tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8])
local share, T, tol, lease = tonumber(ARGV[9]), tonumber(ARGV[10]), tonumber(ARGV[11]), tonumber(ARGV[12])
local shareT = tonumber(ARGV[13])

redis.call('ZADD', KEYS[6], now + tonumber(ARGV[4]), proc)
for i = 3, 6 do redis.call('PEXPIRE', KEYS[i], keyTtl) end -- long waits must not lose the queues
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

-- No epoch: the log is gone (or never was). Calls made just before the loss still count at the
-- CRM, so the current window is taken as full: nobody calls until one window has passed. Never
-- 2x the limit, at the price of one closed window after a first start or a flush.
local epoch = tonumber(redis.call('GET', KEYS[10]) or '-1')
if epoch < 0 then
  epoch = now
  if ARGV[14] == '1' then epoch = now + W + margin end
  redis.call('SET', KEYS[10], string.format('%d', epoch))
  if epoch > now then return {0, epoch - now, 0, 1} end
end
if epoch > now then return {0, epoch - now, 0, 0} end

local paused = tonumber(redis.call('GET', KEYS[7]) or '0')
if paused > now then return {0, paused - now, 0, 0} end

local q = class == 'i' and KEYS[3] or KEYS[4]
local granted = 0
for i = 15, #ARGV do
  local ticket = ARGV[i]
  local rank = redis.call('ZRANK', q, ticket)
  if not rank then return {granted, 0, 1, 0} end

  local used = redis.call('ZCARD', KEYS[1])
  local free = limit - used
  local qi, qb = redis.call('ZCARD', KEYS[3]), redis.call('ZCARD', KEYS[4])
  local bulkUsed = redis.call('ZCARD', KEYS[2])
  local tat = math.max(tonumber(redis.call('GET', KEYS[8]) or '0'), now)
  local pace = 0
  if tat - tol <= now then pace = math.floor((now + tol - tat) / T) + 1 end
  -- Bulk below its guaranteed share may take one slot per window/share, pace or not...
  local lastb = tonumber(redis.call('GET', KEYS[9]) or '0')
  local shareLeft = math.max(0, share - bulkUsed)
  local shareOpen = 0
  if shareLeft > 0 and now - lastb >= shareT - tol then shareOpen = 1 end
  -- ...and when interactive work would take every free slot, bulk picks first up to its share.
  local bulkFirst = 0
  if qi > 0 and qi >= free then bulkFirst = math.max(0, math.min(shareLeft, qb, free)) end

  -- Then interactive, then bulk. Interactive never waits for the pace; bulk keeps to it (every
  -- grant moves it), so the log stays evenly spread over the window and a slot frees every
  -- window/limit on average: an interactive call never waits long, and the CRM sees no bursts.
  local inter = math.max(0, math.min(qi, free - bulkFirst))
  local bulk = math.max(0, math.min(qb, math.max(pace - inter, shareOpen, bulkFirst), free - inter))
  local slots = class == 'i' and inter or bulk

  if rank >= slots then
    local wait = 5
    if used >= limit then
      local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
      wait = tonumber(first[2]) + W + margin - now + 1
    end
    if class == 'b' and pace == 0 and shareOpen == 0 and bulkFirst == 0 then
      local paced = tat - tol - now
      if shareLeft > 0 then paced = math.min(paced, lastb + shareT - tol - now) end
      wait = math.max(wait, paced)
    end
    return {granted, math.max(1, math.ceil(wait)), 0, 0}
  end

  redis.call('ZREM', q, ticket)
  -- Until released, the call may still be on the wire: it counts until its lease ends.
  redis.call('ZADD', KEYS[1], now + lease, ticket)
  redis.call('PEXPIRE', KEYS[1], keyTtl)
  if class == 'b' then
    redis.call('ZADD', KEYS[2], now + lease, ticket)
    redis.call('PEXPIRE', KEYS[2], keyTtl)
    redis.call('SET', KEYS[9], string.format('%d', now), 'PX', keyTtl)
  end
  redis.call('SET', KEYS[8], string.format('%.3f', tat + T), 'PX', keyTtl)
  granted = granted + 1
end
return {granted, 0, 0, 0}
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
 * {now, bulkUsed, qi, qb, pausedUntil, tat, epoch, score1, score2, ...} (live log scores, ascending;
 * epoch -1 when the state is missing).
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
  redis.call('GET', KEYS[10]) or '-1',
}
for i = 2, #scores, 2 do out[#out + 1] = scores[i] end
return out
`;
