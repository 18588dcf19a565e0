// The Board API calls and the reading of its extension fields, in one place.
import {post, authHeaders, ApiError} from "./api.js"

const game = id => `/api/board/game/${encodeURIComponent(id)}`

export const streamPath = id => `/api/board/game/stream/${encodeURIComponent(id)}`
export const move = (id, token, uci, offeringDraw) =>
    post(`${game(id)}/move/${uci}${offeringDraw ? "?offeringDraw=true" : ""}`, token)
export const draw = (id, token, yes) => post(`${game(id)}/draw/${yes ? "yes" : "no"}`, token)
export const resign = (id, token) => post(`${game(id)}/resign`, token)
export const abort = (id, token) => post(`${game(id)}/abort`, token)
export const claim = (id, token, kind, intended) =>
    post(`${game(id)}/claim/${kind}`, token, {move: intended})

export async function pgn(id, token) {
    const res = await fetch(`/game/export/${encodeURIComponent(id)}`, {headers: authHeaders(token)})
    if (!res.ok) throw new ApiError(`HTTP ${res.status}`)
    return res.text()
}

// The side the viewer plays: the server's extension field, else none (a spectator).
export function mySide(full) {
    return full.you === "white" || full.you === "black" ? full.you : null
}

// Whether the clocks stand still although the game is on (the server says so).
export function clockStopped(state) {
    return state.clockRunning === false
}

// The arbiter's notes as lines of text, each with its article.
export function notes(state) {
    return (state.notes || []).map(note => typeof note === "string" ? note : `${note.text}${note.article ? ` (${note.article})` : ""}`)
}

const STATUS_WORDS = {
    mate: "checkmate", resign: "resignation", stalemate: "stalemate", timeout: "the opponent left",
    draw: "draw", outoftime: "time forfeit", aborted: "game aborted", noStart: "no start",
    cheat: "cheat detected", unknownFinish: "finished", variantEnd: "variant end",
}

// The result in words: who won and how, with the arbiter's article when the server gives one.
export function resultText(state, full) {
    const how = STATUS_WORDS[state.status] || state.status
    const score = state.winner === "white" ? "1-0" : state.winner === "black" ? "0-1" : state.status === "aborted" ? "" : "½-½"
    const who = state.winner ? `${state.winner === "white" ? "White" : "Black"} wins` : state.status === "aborted" ? "Aborted" : "Draw"
    const notes = (state.notes || []).filter(note => typeof note !== "string" && note.final)
    const reason = state.reason || (notes.length ? notes[notes.length - 1].text : how)
    const article = state.article ? ` (${state.article})` : ""
    return `${score ? score + " " : ""}${who}: ${reason}${article}`
}
