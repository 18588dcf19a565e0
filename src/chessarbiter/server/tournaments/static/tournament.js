// The tournament pages' forms: the visitor signs in once with their API token (sent in a
// header to POST /api/session, never in a URL; the server answers with an HttpOnly session
// cookie, which the forms and the game pages act by), each form posts its fields to the API
// and reloads the page to show the change; a refusal is shown as the server words it. Signed
// in, the visitor's own games get a playing link (the game's plain address), and the page
// holds the account's event stream: a game starting (a round paired) is announced at once,
// with its round, board, colour, opponent and a link to the board.
import {config, follow, getJson, post} from "/static/api.js"

const $ = id => document.getElementById(id)
const cfg = config()
const announced = new Set()  // the games announced (a reconnected stream lists them again)

// Where the game is in this tournament: "Round 2, board 1: " (or "" for another's game).
async function placeOf(gameId) {
    if (!cfg.tournament) return ""
    const data = await getJson(`/api/tournament/${cfg.tournament}`)
    for (const round of data.pairings) {
        const board = round.boards.find(b => b.game === gameId)
        if (board) return `Round ${round.round}, board ${board.board}: `
    }
    return ""
}

async function announceGame(game) {
    if (game.source !== "tournament" || announced.has(game.gameId)) return
    if (!["created", "started"].includes(game.status?.name)) return
    announced.add(game.gameId)
    let place = ""
    try {
        place = await placeOf(game.gameId)
    } catch (e) {
        place = ""  // the announcement goes out without the board's number
    }
    const item = document.createElement("li")
    const link = document.createElement("a")
    link.href = `/${game.gameId}`
    link.textContent = "Go to your board"
    item.append(`${place}you play ${game.color} against ${game.opponent?.username || "your opponent"}. `, link)
    $("next-games").append(item)
    $("next").hidden = false
}

let following = false

function followEvents() {
    if (following) return
    following = true
    follow("/api/stream/event", "", line => {
        if (line.type === "gameStart") announceGame(line.game)
    }, () => false, () => {})
}

async function who() {
    $("who").textContent = ""
    let me
    try {
        me = await getJson("/api/account")
    } catch (e) {
        return  // not signed in: a spectator
    }
    $("who").textContent = `signed in as ${me.username}`
    followEvents()
    for (const link of document.querySelectorAll("a.game[data-game]")) {
        if (JSON.parse(link.dataset.players).includes(me.username.toLowerCase())) {
            link.href = `/${link.dataset.game}`
            link.textContent = `play game ${link.dataset.game}`
        }
    }
}

$("login").onsubmit = async event => {
    event.preventDefault()
    const token = $("token").value.trim()
    $("token").value = ""
    try {
        await post("/api/session", token)
    } catch (e) {
        $("who").textContent = e.message
        return
    }
    who()
}

for (const form of document.querySelectorAll("form[data-post]")) {
    form.onsubmit = async event => {
        event.preventDefault()
        $("error").textContent = ""
        $("done").textContent = ""
        const empty = [...form.querySelectorAll("input[required]")].find(input => !input.value.trim())
        if (empty) {  // said here: an empty field is never sent as "not given"
            const label = empty.closest("label")?.firstChild?.textContent.trim() || empty.name
            $("error").textContent = empty.dataset.empty || `${label}: required`
            empty.focus()
            return
        }
        const fields = Object.fromEntries(new FormData(form).entries())
        try {
            const reply = await post(form.dataset.post, "", fields)
            if (reply.url) location.assign(reply.url)
            else location.reload()
        } catch (e) {
            $("error").textContent = e.message
        }
    }
}

who()
