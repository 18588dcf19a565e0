// The server's arbiter routes (arbiter token only).
import {getJson, post} from "./api.js"

const base = id => `/api/arbiter/game/${encodeURIComponent(id)}`

export const liveGames = token => getJson("/api/arbiter/games", token).then(reply => reply.games ?? reply)
export const addTime = (token, id, side, seconds) => post(`${base(id)}/time`, token, {side, seconds})
export const declare = (token, id, result, reason) => post(`${base(id)}/result`, token, {result, reason})
export const warn = (token, id, side, reason) => post(`${base(id)}/warn`, token, {side, reason})
export const rule = (token, id, claim, uphold) => post(`${base(id)}/rule`, token, {claim, uphold})
