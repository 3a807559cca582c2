/**
 * Every multi-step change of the Redis store is one of these Lua scripts, so it is atomic across
 * replicas. Values and payloads are opaque strings to Lua (never decoded: cjson would turn `[]`
 * into `{}` and round large numbers).
 *
 * Records: one hash per key, `v` (version) and `d` (the JSON value).
 *
 * A queue's keys all start with `<prefix>{q:<name}>:` (one Cluster slot), ARGV[1] in the queue
 * scripts:
 *   ready          zset  id -> when the head job of a group may be claimed (availableAt, or lease end)
 *   fence          counter of claims: the fencing tokens
 *   queued         counter of jobs not dead
 *   dead           zset  id -> diedAt
 *   job:<id>       hash  group, payload, attempts, due, token (latest claim, until settled),
 *                        reason and diedAt (while dead)
 *   group:<group>  list  of job ids in enqueue order; only the first is ever in `ready`
 * Keys a script cannot know in advance (claimed jobs, a group's next job) are built from that
 * prefix inside the script; the hash tag keeps them in the slot of the declared keys.
 */

/** KEYS[1] record; ARGV value, ttl. */
const set = `
local version = redis.call('HINCRBY', KEYS[1], 'v', 1)
redis.call('HSET', KEYS[1], 'd', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return version`;

/** KEYS[1] record; ARGV value, ttl. */
const setIfAbsent = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', 1, 'd', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/** KEYS[1] record; ARGV expected version, value, ttl. Returns the new version, 0 on conflict. */
const compareAndSet = `
local current = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if current ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'v', current + 1, 'd', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return current + 1`;

/** Makes the next job of `group` (if any) its group's claimable head. */
const releaseGroup = `
local function releaseGroup(prefix, ready, group)
  local groupKey = prefix .. 'group:' .. group
  redis.call('LPOP', groupKey)
  local nextId = redis.call('LINDEX', groupKey, 0)
  if nextId then
    redis.call('ZADD', ready, redis.call('HGET', prefix .. 'job:' .. nextId, 'due'), nextId)
  end
end
`;

/** KEYS job, group, ready, queued; ARGV id, group, payload, due. A dead job keeps its hash. */
const enqueue = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'group', ARGV[2], 'payload', ARGV[3], 'attempts', 0, 'due', ARGV[4])
if redis.call('RPUSH', KEYS[2], ARGV[1]) == 1 then redis.call('ZADD', KEYS[3], ARGV[4], ARGV[1]) end
redis.call('INCR', KEYS[4])
return 1`;

/**
 * KEYS ready, fence; ARGV prefix, now, lease end, max.
 * Returns {id, group, payload, attempts, token} per claimed job.
 */
const claim = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[2], 'LIMIT', 0, ARGV[4])
local claimed = {}
for _, id in ipairs(ids) do
  local job = ARGV[1] .. 'job:' .. id
  local fields = redis.call('HMGET', job, 'group', 'payload', 'attempts', 'token')
  if not fields[1] then
    redis.call('ZREM', KEYS[1], id) -- lost (evicted): never hand out a phantom
  else
    local attempts = tonumber(fields[3])
    if fields[4] then attempts = attempts + 1 end -- its previous lease ran out unsettled
    local token = tostring(redis.call('INCR', KEYS[2]))
    redis.call('HSET', job, 'attempts', attempts, 'token', token, 'due', ARGV[3])
    redis.call('ZADD', KEYS[1], ARGV[3], id)
    claimed[#claimed + 1] = {id, fields[1], fields[2], attempts, token}
  end
end
return claimed`;

/** KEYS job, ready, queued; ARGV prefix, id, token. */
const ack =
  releaseGroup +
  `
if redis.call('HGET', KEYS[1], 'token') ~= ARGV[3] then return 0 end
local group = redis.call('HGET', KEYS[1], 'group')
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('DECR', KEYS[3])
releaseGroup(ARGV[1], KEYS[2], group)
return 1`;

/** KEYS job, ready; ARGV id, token, due. */
const retry = `
if redis.call('HGET', KEYS[1], 'token') ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[1], 'token')
redis.call('HINCRBY', KEYS[1], 'attempts', 1)
redis.call('HSET', KEYS[1], 'due', ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
return 1`;

/** KEYS job, ready, queued, dead; ARGV prefix, id, token, reason, now. */
const deadLetter =
  releaseGroup +
  `
if redis.call('HGET', KEYS[1], 'token') ~= ARGV[3] then return 0 end
redis.call('HDEL', KEYS[1], 'token')
redis.call('HINCRBY', KEYS[1], 'attempts', 1)
redis.call('HSET', KEYS[1], 'reason', ARGV[4], 'diedAt', ARGV[5])
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('DECR', KEYS[3])
redis.call('ZADD', KEYS[4], ARGV[5], ARGV[2])
releaseGroup(ARGV[1], KEYS[2], redis.call('HGET', KEYS[1], 'group'))
return 1`;

/** KEYS dead; ARGV prefix. Returns {id, group, payload, attempts, reason, diedAt} per dead job. */
const listDead = `
local dead = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local fields = redis.call('HMGET', ARGV[1] .. 'job:' .. id, 'group', 'payload', 'attempts', 'reason', 'diedAt')
  if fields[1] then dead[#dead + 1] = {id, fields[1], fields[2], fields[3], fields[4], fields[5]} end
end
return dead`;

/** KEYS job, ready, queued, dead; ARGV prefix, id, now. */
const replay = `
if not redis.call('ZSCORE', KEYS[4], ARGV[2]) then return 0 end
redis.call('ZREM', KEYS[4], ARGV[2])
redis.call('HDEL', KEYS[1], 'reason', 'diedAt')
redis.call('HSET', KEYS[1], 'attempts', 0, 'due', ARGV[3])
local groupKey = ARGV[1] .. 'group:' .. redis.call('HGET', KEYS[1], 'group')
if redis.call('RPUSH', groupKey, ARGV[2]) == 1 then redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2]) end
redis.call('INCR', KEYS[3])
return 1`;

/** KEYS ready. The earliest score (due time) of a group head, or nil. */
const nextDue = `
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if #first == 0 then return false end
return first[2]`;

/** KEYS job, dead; ARGV id. */
const discard = `
if not redis.call('ZSCORE', KEYS[2], ARGV[1]) then return 0 end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('DEL', KEYS[1])
return 1`;

/** KEYS queued, dead. */
const depth = `
return {tonumber(redis.call('GET', KEYS[1]) or '0'), redis.call('ZCARD', KEYS[2])}`;

/** For ioredis `scripts`: each becomes a method that runs EVALSHA (EVAL once after a NOSCRIPT). */
export const SCRIPTS = {
  stateSet: { lua: set, numberOfKeys: 1 },
  stateSetIfAbsent: { lua: setIfAbsent, numberOfKeys: 1 },
  stateCompareAndSet: { lua: compareAndSet, numberOfKeys: 1 },
  queueEnqueue: { lua: enqueue, numberOfKeys: 4 },
  queueClaim: { lua: claim, numberOfKeys: 2 },
  queueAck: { lua: ack, numberOfKeys: 3 },
  queueRetry: { lua: retry, numberOfKeys: 2 },
  queueDeadLetter: { lua: deadLetter, numberOfKeys: 4 },
  queueListDead: { lua: listDead, numberOfKeys: 1 },
  queueReplay: { lua: replay, numberOfKeys: 4 },
  queueDiscard: { lua: discard, numberOfKeys: 2 },
  queueNextDue: { lua: nextDue, numberOfKeys: 1 },
  queueDepth: { lua: depth, numberOfKeys: 2 },
} as const;

export type ScriptName = keyof typeof SCRIPTS;
