// The home page: start a game against a friend (two links), anyone (an open seek) or the
// built-in engine. The server reads the time control and profile and says what is wrong.
import * as server from "./start.js"
import {copyLink, inviteKey} from "./copy.js"

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
            localStorage.setItem(inviteKey(gameId), $("link-other").value)  // for the board
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
