-- wrk script for scripts/load-test: reads and writes mixed on the to-do routes.
-- Per request: 50% GET /todos/:id, 20% GET /todos (a page of 20, some filtered),
-- 20% POST /todos, 10% PATCH /todos/:id. Ids are drawn from the seeded rows.
local seeded = tonumber(os.getenv("SEEDED_ROWS") or "1000")
local json = { ["Content-Type"] = "application/json" }
local counter = 0

function init(args)
    math.randomseed(os.time() * 1000 + math.floor(os.clock() * 1000000) % 1000)
end

function request()
    counter = counter + 1
    local r = math.random(100)
    local id = math.random(seeded)
    if r <= 50 then
        return wrk.format("GET", "/todos/" .. id)
    elseif r <= 70 then
        local path = "/todos?limit=20&offset=" .. math.random(0, seeded - 20)
        if r <= 60 then path = path .. "&completed=false" end
        return wrk.format("GET", path)
    elseif r <= 90 then
        return wrk.format("POST", "/todos", json, '{"title": "load test ' .. counter .. '"}')
    else
        return wrk.format("PATCH", "/todos/" .. id, json, '{"completed": ' .. tostring(r % 2 == 0) .. '}')
    end
end

