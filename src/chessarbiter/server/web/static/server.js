// The Board API calls and the reading of its extension fields, in one place.
import {post, authHeaders, ApiError} from "./api.js"

const game = id => `/api/board/game/${encodeURIComponent(id)}`

export const streamPath = id => `/api/board/game/stream/${encodeURIComponent(id)}`
export const move = (id, token, uci, offeringDraw) =>
    post(`${game(id)}/move/${uci}${offeringDraw ? "?offeringDraw=true" : ""}`, token)
export const draw = (id, token, yes) => post(`${game(id)}/draw/${yes ? "yes" : "no"}`, token)
export const resign = (id, token) => post(`${game(id)}/resign`, token)
export const abort = (id, token) => post(`${game(id)}/abort`, token)
export const claimGone = (id, token, victory) =>
    post(`${game(id)}/claim-${victory ? "victory" : "draw"}`, token)
export const claim = (id, token, kind, intended) =>
    post(`${game(id)}/claim/${kind}${intended ? `?move=${intended}` : ""}`, token)

export async function pgn(id, token) {
    const res = await fetch(`/game/export/${encodeURIComponent(id)}`, {headers: authHeaders(token)})
    if (!res.ok) throw new ApiError(`HTTP ${res.status}`)
    return res.text()
}

// The side the viewer plays (the extension field "you" of GET /api/game/{id}), or null for
// a spectator.
export async function mySide(id, token) {
    const res = await fetch(`/api/game/${encodeURIComponent(id)}`, {headers: authHeaders(token)})
    if (!res.ok) throw new ApiError(`game ${id}: HTTP ${res.status}`)
    const {you} = await res.json()
    return you === "white" || you === "black" ? you : null
}

// Whether the clocks stand still although the game is on (the extension clockRunning).
export function clockStopped(state) {
    return state.clockRunning === false
}

// Whether the clocks stand still in a game that goes on, stopped by the arbiter or after an
// interruption (Art. 6.12, the server's outage rule), until the arbiter starts them again:
// stopped once both players have moved (before that an online game's clocks have not
// started), or at any ply once the arbiter's note said so (`noted`).
export function clocksHalted(full, state, plies, noted) {
    if (!full.clock || !clockStopped(state) || state.pendingRuling) return false
    if (!["created", "started"].includes(state.status)) return false
    return plies >= 2 || noted
}

// Whether a tournament game waits for its round to start: under rules whose clocks start at
// the start of the game (Art. 6.5), the director starts the round; before that no clock runs
// and no move is taken.
export function awaitsRound(full, state, plies, noted) {
    return full.source === "tournament" && full.profile?.clock_start === "black-starts-white"
        && !!full.clock && clockStopped(state) && !state.pendingRuling && plies === 0 && !noted
        && ["created", "started"].includes(state.status)
}

// Whether one of the notes says the clocks were stopped (Art. 6.12).
export function notesStopClocks(state) {
    return (state.notes || []).some(note => /stops the clocks/.test(note.text))
}

// Whether the game has a clock (lichess' clock field; the extension timeControl).
export function hasClock(full) {
    return !!full.clock
}

// The days per move of a correspondence game (lichess' daysPerTurn), or null.
export function daysPerTurn(full) {
    return full.daysPerTurn || null
}

// An article as the arbiter cites it ("6.9 (S6.9)": with the 2000 Laws' key), for people.
function article(note) {
    if (!note.article) return ""
    const cited = note.article.replace(/ \((S[^)]*)\)/g, ", $1")
    return ` (${/^(Art|Guide|USCF)/.test(cited) ? "" : "Art. "}${cited})`
}

// The arbiter's notes (the extension notes) as lines of text, each with its article.
export function notes(state) {
    return (state.notes || []).map(note => `${note.text}${article(note)}`)
}

// The result in words: the score, who won and why, with the article (the extension
// termination), or lichess' status when the server gives no more.
export function resultText(state) {
    const end = state.termination
    const score = state.status === "aborted" ? "" : end?.result || (state.winner === "white" ? "1-0" : state.winner === "black" ? "0-1" : "1/2-1/2")
    const who = state.status === "aborted" ? "Game aborted" : state.winner ? `${state.winner === "white" ? "White" : "Black"} wins` : "Draw"
    const why = end ? `: ${end.reason || end.name}${article(end)}` : state.status === "aborted" ? "" : `: ${state.status}`
    return `${score ? score + " " : ""}${who}${why}`
}
