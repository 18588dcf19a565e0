// The arbiter's console: live games with their clocks and pending claims, and the arbiter's
// actions (add time, declare a result, rule on a claim, warn, penalise), each through the
// server's arbiter routes and recorded in the game's log.
import {getJson, post, formatMs} from "./api.js"
import * as server from "./arbiter-api.js"

const $ = id => document.getElementById(id)
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

function actions(game) {
    const box = document.createDocumentFragment()
    for (const side of ["white", "black"]) {
        box.append(button(`+2 min ${side}`, async () => {
            await server.addTime(token, game.id, side, 120)
            return `Added 2 minutes to ${side} in game ${game.id}.`
        }))
    }
    box.append(button("Declare result…", async () => {
        const result = prompt("Result (1-0, 0-1, 1/2-1/2, 0-0):", "1/2-1/2")
        if (!result) return null
        const reason = prompt("Reason (with its article):", "") || ""
        await server.declare(token, game.id, result, reason)
        return `Declared ${result} in game ${game.id}.`
    }))
    for (const side of ["white", "black"]) {
        box.append(button(`Warn ${side}`, async () => {
            const reason = prompt(`Warning to ${side}, reason:`, "")
            if (reason === null) return null
            await server.warn(token, game.id, side, reason)
            return `Warned ${side} in game ${game.id}.`
        }))
    }
    for (const pending of game.pending || []) {
        for (const [label, verdict] of [["Uphold", true], ["Reject", false]]) {
            box.append(button(`${label}: ${pending.text || pending.kind}`, async () => {
                await server.rule(token, game.id, pending.id, verdict)
                return `${label}ed in game ${game.id}.`
            }))
        }
    }
    return box
}

async function load() {
    $("error").textContent = ""
    const body = $("games").querySelector("tbody")
    let games
    try {
        games = await server.liveGames(token)
    } catch (e) {
        $("error").textContent = e.message
        return
    }
    body.innerHTML = ""
    if (!games.length) {
        const row = document.createElement("tr")
        const td = cell(row, "No live games.")
        td.colSpan = 8
        td.className = "empty"
        body.append(row)
    }
    for (const game of games) {
        const row = document.createElement("tr")
        const link = document.createElement("a")
        link.href = `/game/${game.id}`
        link.textContent = game.id
        cell(row, link)
        cell(row, game.white || "anonymous")
        cell(row, game.black || "anonymous")
        cell(row, String(game.plies ?? ""))
        cell(row, game.wtime === undefined || game.wtime === null ? "no clock" : `${formatMs(game.wtime)} / ${formatMs(game.btime)}`)
        cell(row, game.status)
        cell(row, (game.pending || []).map(p => p.text || p.kind).join("; ") || "none")
        cell(row, actions(game)).className = "actions-cell"
        body.append(row)
    }
}

load()
setInterval(() => { if (!document.querySelector(":focus")) load() }, 5000)
