// The arbiter's console: live games with their clocks and pending claims, and the arbiter's
// actions (add time, declare a result, rule on a claim, warn, penalise), each through the
// server's arbiter routes and recorded in the game's log.
import {formatMs} from "./api.js"
import * as server from "./arbiter-api.js"

const $ = id => document.getElementById(id)
const LABELS = [...document.querySelectorAll("#games thead th")].map(th => th.textContent)
let token = sessionStorage.getItem("chessarbiter:arbiter") || ""
$("token").value = token

$("login").onsubmit = event => {
    event.preventDefault()
    token = $("token").value.trim()
    sessionStorage.setItem("chessarbiter:arbiter", token)
    load()
}
$("refresh").onclick = () => load()

function cell(row, content) {
    const td = document.createElement("td")
    if (content instanceof Node) td.append(content)
    else td.textContent = content
    row.append(td)
    return td
}

function button(label, action) {
    const b = document.createElement("button")
    b.type = "button"
    b.textContent = label
    b.onclick = async () => {
        $("error").textContent = ""
        $("done").textContent = ""
        try {
            const text = await action()
            if (text === null) return
            $("done").textContent = text
            load()
        } catch (e) {
            $("error").textContent = e.message
        }
    }
    return b
}

function ask(question, fallback = "") {
    const answer = prompt(question, fallback)
    return answer === null ? null : answer.trim()
}

// A game whose clocks stand still while it goes on (stopped by an arbiter or after the
// server's interruption, Art. 6.12): it waits for the arbiter's decision. Before both
// players have moved, an online game's clocks have not started yet.
function halted(game) {
    if (!game.clocks || game.clockRunning !== false || game.status !== "started" || game.pendingRuling) return false
    return game.moves >= 2 || game.notes.some(note => /stops the clocks/.test(note))
}

// "m:ss" or minutes ("5", "4.5") as ms; null when it is neither.
function readTime(text) {
    const match = text.match(/^(\d+):([0-5]\d)$/)
    if (match) return (Number(match[1]) * 60 + Number(match[2])) * 1000
    return /^\d+(\.\d+)?$/.test(text) ? Math.round(Number(text) * 60000) : null
}

function clockActions(game) {
    const box = document.createDocumentFragment()
    const id = game.id
    box.append(button("Start the clocks", async () => {
        await server.startClocks(token, id)
        return `Started the clocks in game ${id}.`
    }))
    box.append(button("Set the clocks…", async () => {
        const times = []
        for (const [side, ms] of [["white", game.clocks[0]], ["black", game.clocks[1]]]) {
            const answer = ask(`${side}'s time (m:ss or minutes):`, formatMs(ms).replace(/\..*/, ""))
            if (answer === null) return null
            const time = readTime(answer)
            if (time === null) throw new Error(`${side}'s time: '${answer}' is not m:ss nor minutes`)
            times.push(time)
        }
        await server.setClocks(token, id, times[0], times[1])
        return `Set the clocks in game ${id}: white ${formatMs(times[0])}, black ${formatMs(times[1])}.`
    }))
    return box
}

function actions(game) {
    const box = document.createDocumentFragment()
    const id = game.id
    if (halted(game)) box.append(clockActions(game))
    for (const side of ["white", "black"]) {
        box.append(button(`+2 min ${side}`, async () => {
            await server.addTime(token, id, side, 120, "added by the arbiter")
            return `Added 2 minutes to ${side} in game ${id}.`
        }))
    }
    box.append(button("Declare result…", async () => {
        const result = ask("Result (1-0, 0-1, 1/2-1/2, 0-0):", "1/2-1/2")
        if (!result) return null
        const reason = ask("Reason (with its article):")
        if (reason === null) return null
        await server.declare(token, id, result, reason)
        return `Declared ${result} in game ${id}.`
    }))
    for (const side of ["white", "black"]) {
        box.append(button(`Warn ${side}`, async () => {
            const reason = ask(`Warning to ${side}, reason:`)
            if (!reason) return null
            await server.warn(token, id, side, reason)
            return `Warned ${side} in game ${id}.`
        }))
        box.append(button(`Forfeit ${side}`, async () => {
            const reason = ask(`${side} loses by forfeit (a penalty, Art. 12.9), reason:`)
            if (!reason) return null
            await server.forfeit(token, id, side, reason)
            return `${side} forfeited game ${id}.`
        }))
    }
    if (game.pendingRuling) {
        for (const [label, canMate] of [["Flag: loss stands", true], ["Flag: draw", false]]) {
            box.append(button(label, async () => {
                const reason = ask("Reason (Art. 6.9):", canMate ? "the opponent can checkmate" : "the opponent cannot checkmate")
                if (!reason) return null
                await server.ruleFlag(token, id, canMate, reason)
                return `Ruled on the flag in game ${id}: ${canMate ? "the loss stands" : "a draw"}.`
            }))
        }
    }
    if (game.suddenDeathClaim) {
        for (const ruling of ["draw", "postpone", "reject"]) {
            box.append(button(`Sudden-death claim: ${ruling}`, async () => {
                await server.ruleSuddenDeath(token, id, ruling)
                return `Ruled on the sudden-death claim in game ${id}: ${ruling}.`
            }))
        }
    }
    return box
}

function playerName(player) {
    return player.name || player.id || (player.aiLevel ? `engine level ${player.aiLevel}` : "anonymous")
}

function pendingText(game) {
    const parts = []
    if (halted(game)) parts.push("clocks stopped: start them, set them or declare a result (Art. 6.12)")
    if (game.awaitsRound) parts.push("the round has not started: its director starts it (Art. 6.5)")
    for (const side of ["white", "black"]) {  // for the default time (Art. 6.7)
        if (game.presence?.[side] === "absent") parts.push(`${side} has not arrived`)
        if (game.presence?.[side] === "gone") parts.push(`${side} has left`)
    }
    if (game.pendingRuling) parts.push(`flag to rule on: ${game.pendingRuling}`)
    if (game.suddenDeathClaim) parts.push(`sudden-death draw claim by ${game.suddenDeathClaim}`)
    if (game.pendingOffer) parts.push(`draw offer by ${game.pendingOffer}`)
    return parts.join("; ") || "none"
}

// The clocks as they run between refreshes: each row's readings and when they were read.
const ticking = new Map()  // game id -> {cell, clocks, running, at}

function clocksText(clocks) {
    return clocks ? `white ${formatMs(clocks[0])}, black ${formatMs(clocks[1])}` : "no clock"
}

function tick() {
    for (const {cell, clocks, running, at} of ticking.values()) {
        if (running === null) continue
        const now = [...clocks]
        now[running] = Math.max(0, now[running] - (performance.now() - at))
        cell.textContent = clocksText(now)
    }
}

// The focused control (its game and label), to focus again once the rows are rebuilt.
function focused() {
    const active = document.activeElement
    const row = active?.closest?.("tr[data-game]")
    return row && active.tagName === "BUTTON" ? {game: row.dataset.game, label: active.textContent} : null
}

function refocus(where) {
    if (!where) return
    const row = $("games").querySelector(`tr[data-game="${CSS.escape(where.game)}"]`)
    const again = [...(row?.querySelectorAll("button") || [])].find(b => b.textContent === where.label)
    again?.focus()
}

async function load() {
    const body = $("games").querySelector("tbody")
    let games, dormant
    try {
        ({games, dormant} = await server.liveGames(token))
    } catch (e) {
        $("error").textContent = e.message
        return
    }
    $("error").textContent = ""
    const where = focused()
    body.innerHTML = ""
    ticking.clear()
    if (!games.length && !dormant.length) {
        const row = document.createElement("tr")
        const td = cell(row, "No live games.")
        td.colSpan = 8
        td.className = "empty"
        body.append(row)
    }
    games.sort((a, b) => Number(halted(b)) - Number(halted(a)))  // waiting for a decision first
    for (const game of games) {
        const row = document.createElement("tr")
        row.dataset.game = game.id
        if (halted(game)) row.className = "halted"
        const link = document.createElement("a")
        link.href = `/${game.id}`
        link.textContent = game.id
        cell(row, link)
        cell(row, playerName(game.white))
        cell(row, playerName(game.black))
        cell(row, `${game.moves} (${game.toMove} to move)`)
        const clocks = cell(row, clocksText(game.clocks))
        if (game.clocks) {
            const running = game.clockRunning && game.status === "started" ? (game.toMove === "white" ? 0 : 1) : null
            ticking.set(game.id, {cell: clocks, clocks: game.clocks, running, at: performance.now()})
        }
        const [warnedWhite, warnedBlack] = game.warnings
        cell(row, `${game.status}${warnedWhite || warnedBlack ? `; warnings: white ${warnedWhite}, black ${warnedBlack}` : ""}`)
        cell(row, pendingText(game))
        const buttons = document.createElement("div")
        buttons.className = "row-actions"
        buttons.append(actions(game))
        cell(row, buttons)
        row.querySelectorAll("td").forEach((td, i) => { td.dataset.label = LABELS[i] })  // phones
        body.append(row)
    }
    for (const game of dormant) sleepingRow(body, game)
    refocus(where)
}

// A game not loaded since the restart (nothing for the arbiter to do: opening it loads it).
function sleepingRow(body, game) {
    const row = document.createElement("tr")
    row.dataset.game = game.id
    const link = document.createElement("a")
    link.href = `/${game.id}`
    link.textContent = game.id
    cell(row, link)
    cell(row, game.white || "anonymous")
    cell(row, game.black || "anonymous")
    for (const text of ["", "", "not loaded since the restart", "none", ""]) cell(row, text)
    row.querySelectorAll("td").forEach((td, i) => { td.dataset.label = LABELS[i] })
    body.append(row)
}

if (token) load()  // nothing to ask before a token is given
setInterval(() => { if (token) load() }, 5000)
setInterval(tick, 1000)
