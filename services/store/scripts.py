"""The Lua script that appends a batch: validated first, then written, in one atomic step.

MULTI/EXEC does not roll back, so every check happens before the first write but one:
at the stream's expected version, the ids are claimed (HSETNX) as they are checked, and a
stored id among them takes the batch's claims and counter back before anything else is
written or answered (the script runs whole, so no reader sees the claims). That spares
the common case a read of the index.
KEYS: 1 the stream's events (Redis stream, ids 0-<version>), 2 its id index (hash
event id → "version:position"), 3 the tenant's global log (ids 0-<position>), 4 the
global position counter. ARGV: stream name, expected version (-1 any), event count,
the batch's fingerprint ('' for none), then id, type, data per event.

On a Redis Cluster (`APPEND_SHARDED`), KEYS 3 and 4 are the stream's log shard and
its counter (same slot as the stream), ARGV 4 is the shard's number, and the
fingerprint and the batch follow it; an event's position is `sequence * LOG_SHARDS +
shard`, so positions are unique in the tenant and increase along each shard (and so
along each stream).

A fingerprint says which command a batch records (services/store/sessions.py: a hash of
the client's request, whose command id the event ids derive from). It is stored with
the batch's first event (its stream entry's `command` field, written by the same XADD)
and compared when the batch's ids are found stored: the same ids under another
fingerprint are another command that reused the command id (`{"other"}`), not a retry.
A stored batch without one (recorded before fingerprints, or by a caller that gives
none) and a batch without one match anything: nobody can tell.

A guarded append (a role token's command) has a fifth key, the stream's revocations
hash (same slot), and after the batch the token's issue time (ms) and its scopes: the
script refuses the batch (`{"revoked"}`) when a scope's cutoff is at or after the issue
time, before anything else is answered, so the check costs no round trip of its own.

Replies: {"ok", v1, p1, v2, p2, ...} | {"dup", v1, p1, ...} | {"conflict", actual} |
{"conflict", actual, entries} | {"partial"} | {"moved"} | {"other"} | {"revoked"} |
{"invalid", why}.
A conflict carries the stream's entries after the expected version (XRANGE) when the
stream is ahead of it by at most `CONFLICT_EVENTS`: the writer catches up from them.

The client refuses malformed batches before sending them; the script checks again
(argument count, ids and types non-empty, ids unique, data a JSON object), so a batch
that slipped past a client (another version, a bug) is refused whole, never half written.
"""

from __future__ import annotations

from services.store.keys import LOG_SHARDS

_TEMPLATE = """
local stream, expected, n = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local H, stride, offset = @HEAD@
local fingerprint = ARGV[H]
if fingerprint == '' then fingerprint = nil end
local guarded = #KEYS == 5
local size = n and H + n * 3
if not n or n < 1 or (guarded and #ARGV < size + 2) or (not guarded and #ARGV ~= size) then
  return {'invalid', 'malformed batch'}
end
local seen = n > 1 and {} or nil
for i = 1, n do
  local base = H + (i - 1) * 3
  local id, kind = ARGV[base + 1], ARGV[base + 2]
  if id == '' or kind == '' then return {'invalid', 'event ' .. i .. ' has no id or type'} end
  if seen then
    if seen[id] then return {'invalid', 'event id ' .. id .. ' is repeated'} end
    seen[id] = true
  end
  local ok, data = pcall(cjson.decode, ARGV[base + 3])
  if not ok or type(data) ~= 'table' then
    return {'invalid', 'event ' .. i .. ' has data that is not a JSON object'}
  end
end
if guarded then
  local issued, scopes = tonumber(ARGV[size + 1]), {}
  for i = size + 2, #ARGV do scopes[#scopes + 1] = ARGV[i] end
  if not issued then return {'invalid', 'malformed guard'} end
  local cutoffs = redis.call('HMGET', KEYS[5], unpack(scopes))
  for i = 1, #scopes do
    local cutoff = tonumber(cutoffs[i])
    if cutoff and issued <= cutoff then return {'revoked'} end
  end
end
-- The batch's ids as stored: the first attempt's reply (a retry), a refusal, or nil when
-- none is stored.
local function stored()
  local ids = {}
  for i = 1, n do ids[i] = ARGV[H + (i - 1) * 3 + 1] end
  local known = redis.call('HMGET', KEYS[2], unpack(ids))
  local found = 0
  for i = 1, n do if known[i] then found = found + 1 end end
  if found == 0 then return nil end
  if found < n then return {'partial'} end
  local reply = {'dup'}
  local first = nil
  for i = 1, n do
    local sep = string.find(known[i], ':', 1, true)
    local v = tonumber(string.sub(known[i], 1, sep - 1))
    if first == nil then first = v elseif v ~= first + i - 1 then return {'moved'} end
    reply[2 * i] = v
    reply[2 * i + 1] = tonumber(string.sub(known[i], sep + 1))
  end
  -- The same ids: a retry of the command that recorded them, unless it recorded another
  -- fingerprint (its first event's `command` field; none stored: cannot tell).
  if fingerprint then
    local entry = redis.call('XRANGE', KEYS[1], '0-' .. first, '0-' .. first)[1]
    local fields = entry and entry[2] or {}
    for j = 1, #fields, 2 do
      if fields[j] == 'command' and fields[j + 1] ~= fingerprint then return {'other'} end
    end
  end
  return reply
end
local current = redis.call('XLEN', KEYS[1])
if expected >= 0 and current ~= expected then
  local refused = stored()
  if refused then return refused end
  -- A writer a few events behind (another process moved the stream on) gets them with
  -- the refusal: what its next read would return, so it decides again without one.
  if current > expected and current - expected <= @NEWER@ then
    return {'conflict', current, redis.call('XRANGE', KEYS[1], '0-' .. (expected + 1), '+')}
  end
  return {'conflict', current}
end
-- The stream is where the writer expects it: claim the ids (HSETNX answers whether one
-- is stored, so the common case reads nothing more). A stored id takes every claim and
-- the counter back before anything else is written, and the batch is answered as above.
local sequence = redis.call('INCRBY', KEYS[4], n) - n
for i = 1, n do
  local at = (current + i) .. ':' .. ((sequence + i) * stride + offset)
  if redis.call('HSETNX', KEYS[2], ARGV[H + (i - 1) * 3 + 1], at) == 0 then
    for j = 1, i - 1 do redis.call('HDEL', KEYS[2], ARGV[H + (j - 1) * 3 + 1]) end
    redis.call('DECRBY', KEYS[4], n)
    return stored()
  end
end
local reply = {'ok'}
for i = 1, n do
  local base = H + (i - 1) * 3
  local version, s = current + i, sequence + i
  local position = s * stride + offset
  if i == 1 and fingerprint then
    redis.call('XADD', KEYS[1], '0-' .. version, 'id', ARGV[base + 1], 'type', ARGV[base + 2],
      'data', ARGV[base + 3], 'pos', position, 'command', fingerprint)
  else
    redis.call('XADD', KEYS[1], '0-' .. version,
      'id', ARGV[base + 1], 'type', ARGV[base + 2], 'data', ARGV[base + 3], 'pos', position)
  end
  redis.call('XADD', KEYS[3], '0-' .. s,
    'stream', stream, 'version', version,
    'id', ARGV[base + 1], 'type', ARGV[base + 2], 'data', ARGV[base + 3])
  reply[2 * i] = version
  reply[2 * i + 1] = position
end
return reply
"""

# A stream's latest snapshot and every event after it, in one round trip (a state not
# cached in this process). KEYS: 1 the snapshot hash, 2 the stream's events (same slot).
# Reply: {version or nil, state or nil, XRANGE entries after the snapshot}.
LOAD = """
local snap = redis.call('HMGET', KEYS[1], 'version', 'state')
local from = 1
if snap[1] then from = tonumber(snap[1]) + 1 end
return {snap[1], snap[2], redis.call('XRANGE', KEYS[2], '0-' .. from, '+')}
"""

# A snapshot, stored unless one at or past its version is: checked and written in one
# step (two writers can no longer replace a newer snapshot with an older one).
# KEYS: 1 the snapshot hash. ARGV: version, state (JSON). Reply: 1 stored, 0 kept.
SAVE_SNAPSHOT = """
local current = redis.call('HGET', KEYS[1], 'version')
if current and tonumber(current) >= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'state', ARGV[2])
return 1
"""

# A conflict's reply carries the events after the expected version when at most this
# many: a writer that far behind catches up without a read of its own.
CONFLICT_EVENTS = 64
_BOTH = _TEMPLATE.replace("@NEWER@", str(CONFLICT_EVENTS))
# One Redis: ARGV 4 is the fingerprint, the batch follows; position = the global counter.
APPEND = _BOTH.replace("@HEAD@", "4, 1, 0")
# A Redis Cluster: ARGV 4 is the stream's log shard, ARGV 5 the fingerprint; position =
# sequence * shards + shard.
APPEND_SHARDED = _BOTH.replace("@HEAD@", f"5, {LOG_SHARDS}, tonumber(ARGV[4])")
