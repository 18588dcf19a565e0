// The server's HTTP API as the pages use it: JSON and form posts, NDJSON streams that
// reconnect, and the view of a game's moves (legal moves, SAN, words) from the server.

export function config() {
    return JSON.parse(document.getElementById("config").textContent)
}

export function authHeaders(token) {
    return token ? {Authorization: `Bearer ${token}`} : {}
}

// A position in FEN inside a message: for programs, not people (the move is named anyway).
const FEN_IN_TEXT = / in [pnbrqkPNBRQK1-8]+(?:\/[pnbrqkPNBRQK1-8]+){7} [wb] \S+ \S+ \d+ \d+/g

// The error text of a refused request, for people: the server's "error" field without any
// FEN, or the HTTP status when the server gave no reason.
async function refusal(res) {
    let text = ""
    try {
        const body = await res.json()
        text = typeof body.error === "string" ? body.error : JSON.stringify(body.error ?? body)
    } catch (e) {
        text = ""
    }
    text = text.replace(FEN_IN_TEXT, "")
    return text || `request refused (HTTP ${res.status}${res.statusText ? " " + res.statusText : ""})`
}

export class ApiError extends Error {}

// POST the fields as a JSON object (the server reads forms or JSON); the JSON reply.
export async function post(path, token, fields = {}) {
    const body = {}
    for (const [key, value] of Object.entries(fields)) {
        if (value !== undefined && value !== null && value !== "") body[key] = String(value)
    }
    const res = await fetch(path, {
        method: "POST",
        headers: {...authHeaders(token), "Content-Type": "application/json"},
        body: JSON.stringify(body),
    })
    if (!res.ok) throw new ApiError(await refusal(res))
    const text = await res.text()
    return text ? JSON.parse(text.split("\n")[0]) : {}
}

export async function getJson(path, token) {
    const res = await fetch(path, {headers: authHeaders(token)})
    if (!res.ok) throw new ApiError(await refusal(res))
    return res.json()
}

// Read an NDJSON stream, calling onLine with each object; resolves when the stream ends.
export async function readNdjson(res, onLine) {
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
    let buffer = ""
    for (;;) {
        const {value, done} = await reader.read()
        if (done) break
        buffer += value
        let cut
        while ((cut = buffer.indexOf("\n")) >= 0) {
            const line = buffer.slice(0, cut).trim()
            buffer = buffer.slice(cut + 1)
            if (line) onLine(JSON.parse(line))
        }
    }
    if (buffer.trim()) onLine(JSON.parse(buffer))
}

// Follow a stream, re-opening it when it drops (the server starts again with the full
// state), until shouldStop() says the game is over. onState(text) reports the connection.
export async function follow(path, token, onLine, shouldStop, onState) {
    let delay = 250
    while (!shouldStop()) {
        try {
            const res = await fetch(path, {headers: authHeaders(token)})
            if (!res.ok) {
                onState(await refusal(res))
                if (res.status >= 400 && res.status < 500 && res.status !== 429) return
            } else {
                onState("")
                delay = 250
                await readNdjson(res, onLine)
            }
        } catch (e) {
            onState("connection lost, reconnecting…")
        }
        if (shouldStop()) return
        await new Promise(resolve => setTimeout(resolve, delay))
        delay = Math.min(delay * 2, 2000)
    }
}

export function gameView(initialFen, moves, chess960) {
    const query = new URLSearchParams({fen: initialFen || "startpos", moves, chess960})
    return getJson(`/web/view?${query}`)
}

export function readTypedMove(initialFen, moves, text, chess960) {
    const query = new URLSearchParams({fen: initialFen || "startpos", moves, text, chess960})
    return getJson(`/web/move?${query}`)
}

export function formatMs(ms) {
    if (ms <= 0) return "0:00"
    const tenths = Math.floor(ms / 100) % 10
    let seconds = Math.floor(ms / 1000)
    const hours = Math.floor(seconds / 3600)
    const minutes = Math.floor((seconds % 3600) / 60)
    seconds %= 60
    const two = n => String(n).padStart(2, "0")
    if (hours) return `${hours}:${two(minutes)}:${two(seconds)}`
    if (minutes === 0 && seconds < 20) return `0:${two(seconds)}.${tenths}`
    return `${minutes}:${two(seconds)}`
}

// A correspondence deadline's time left: "2 days 3 h", "5 h 20 min", "12 min".
export function deadlineText(ms) {
    const minutes = Math.max(0, Math.floor(ms / 60000))
    const days = Math.floor(minutes / 1440)
    const hours = Math.floor((minutes % 1440) / 60)
    if (days) return `${days} day${days === 1 ? "" : "s"}${hours ? ` ${hours} h` : ""}`
    if (hours) return `${hours} h ${minutes % 60} min`
    return `${minutes} min`
}

// A clock reading in words, for the accessible mode.
export function msWords(ms) {
    let seconds = Math.max(0, Math.floor(ms / 1000))
    const hours = Math.floor(seconds / 3600)
    const minutes = Math.floor((seconds % 3600) / 60)
    seconds %= 60
    const parts = []
    if (hours) parts.push(`${hours} hour${hours === 1 ? "" : "s"}`)
    if (minutes) parts.push(`${minutes} minute${minutes === 1 ? "" : "s"}`)
    if (seconds || !parts.length) parts.push(`${seconds} second${seconds === 1 ? "" : "s"}`)
    return parts.join(" ")
}
