// The home page: start a game against a friend (two links), anyone (an open seek) or the
// built-in engine. The server reads the time control and profile and says what is wrong.
import * as server from "./start.js"
import {copyLink, forgetInvite, keepInvite, keptGames, keptInvite} from "./copy.js"
import {getJson} from "./api.js"

const $ = id => document.getElementById(id)
const form = $("start")
let seeking = null  // the AbortController of an open seek

function fields() {
    const data = new FormData(form)
    return {
        control: data.get("control").trim(),
        profile: data.get("profile"),
        color: data.get("color"),
        opponent: data.get("opponent"),
        level: data.get("level"),
        accessible: $("accessible").checked,
    }
}

function boardUrl(url, accessible) {
    if (!accessible) return url
    const link = new URL(url, location.href)
    link.searchParams.set("accessible", "1")
    return link.pathname + link.search
}

form.onsubmit = async event => {
    event.preventDefault()
    $("error").textContent = $("done").textContent = ""
    $("links").hidden = $("seeking").hidden = true
    const choice = fields()
    if (!choice.control) {  // never an untimed game without saying so
        $("error").textContent = "time control: write one (e.g. 5+3), or - for a game without clocks"
        $("control").focus()
        return
    }
    $("go").disabled = true
    try {
        if (choice.opponent === "friend") {
            const {mine, other, watch} = await server.friend(choice)
            $("link-watch").href = $("link-watch").textContent = watch
            $("link-other").value = new URL(other, location.href).href
            $("link-mine").href = boardUrl(mine, choice.accessible)
            $("copied").textContent = ""
            const gameId = new URL(mine, location.href).pathname.slice(1)
            keepInvite(gameId, {other: $("link-other").value, mine: $("link-mine").href, watch})
            $("links").hidden = false
            $("link-mine").focus()
        } else if (choice.opponent === "engine") {
            location.assign(boardUrl(await server.engine(choice), choice.accessible))
        } else {
            $("seeking").hidden = false
            seeking = new AbortController()
            location.assign(boardUrl(await server.seek(choice, seeking.signal), choice.accessible))
        }
    } catch (e) {
        if (e.name === "AbortError") $("done").textContent = "The seek is cancelled."
        else $("error").textContent = e.message
        $("seeking").hidden = true
    } finally {
        seeking = null
        $("go").disabled = false
    }
}

$("copy").onclick = () => copyLink($("link-other"), $("copied"))
// Closing the seek's stream withdraws it (the server drops a seek whose stream is gone).
$("cancel-seek").onclick = () => seeking?.abort()

// The friends' games this browser made that have not ended, listed again (Back from a board,
// a later visit): the friend's link with Copy, and the way to the player's board.
async function drawKept() {
    const list = $("kept-games")
    list.innerHTML = ""
    for (const gameId of keptGames()) {
        const links = keptInvite(gameId)
        let game = null
        try {
            game = await getJson(`/api/game/${encodeURIComponent(gameId)}`)
        } catch (e) {
            if (e instanceof TypeError) continue  // offline: kept for later
        }
        if (!links || !game || !["created", "started"].includes(game.state.status)) {
            forgetInvite(gameId)
            continue
        }
        const item = document.createElement("li")
        const label = `Link for your friend, game ${gameId}`
        const input = Object.assign(document.createElement("input"), {readOnly: true, value: links.other})
        input.setAttribute("aria-label", label)
        const copy = Object.assign(document.createElement("button"), {type: "button", textContent: "Copy"})
        copy.setAttribute("aria-label", `Copy the link for your friend, game ${gameId}`)
        const copied = document.createElement("span")
        copied.setAttribute("role", "status")
        copy.onclick = () => copyLink(input, copied)
        const board = Object.assign(document.createElement("a"), {href: links.mine, textContent: `Go to your board (game ${gameId})`})
        item.append(input, " ", copy, " ", copied, " ", board)
        list.append(item)
    }
    $("kept").hidden = !list.childElementCount
}

drawKept()
