// The server's arbiter routes (an account with the arbiter role): every decision is an
// event of the game's log, ruled on like any other.
import {getJson, post} from "./api.js"

const decide = (token, id, decision, fields) =>
    post(`/api/arbiter/game/${encodeURIComponent(id)}/${decision}`, token, fields)

// The live games (games) and those a restart has not loaded yet (dormant: id, white, black).
export const liveGames = token => getJson("/api/arbiter/games", token)
export const addTime = (token, id, color, seconds, reason) => decide(token, id, "add-time", {color, seconds, reason})
// Restart the clocks after a stop or an interruption (Art. 6.12).
export const startClocks = (token, id) => decide(token, id, "start-clocks", {})
// Set both clocks (ms) on the best evidence (Art. 6.10, 6.13).
export const setClocks = (token, id, wtime, btime) => decide(token, id, "set-clocks", {wtime, btime})
export const declare = (token, id, result, reason) => decide(token, id, "result", {result, reason})
export const warn = (token, id, color, reason) => decide(token, id, "warn", {color, reason})
export const forfeit = (token, id, color, reason) => decide(token, id, "forfeit", {color, reason})
// An undetermined flag (Art. 6.9): can the opponent mate? true: the loss stands; false: a draw.
export const ruleFlag = (token, id, canMate, reason) => decide(token, id, "rule", {canMate, reason})
// A sudden-death draw claim (S10.2, F23 Guidelines III.5): draw, postpone or reject.
export const ruleSuddenDeath = (token, id, ruling) => decide(token, id, "sudden-death", {ruling})
