// The home page: start a game against a friend (two links), anyone (an open seek) or the
// built-in engine. The server reads the time control and profile and says what is wrong.
import * as server from "./start.js"

const $ = id => document.getElementById(id)
const form = $("start")

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
    $("error").textContent = ""
    $("links").hidden = $("seeking").hidden = true
    const choice = fields()
    $("go").disabled = true
    try {
        if (choice.opponent === "friend") {
            const {mine, other, watch} = await server.friend(choice)
            $("link-watch").href = $("link-watch").textContent = watch
            $("link-other").value = new URL(other, location.href).href
            $("link-mine").href = boardUrl(mine, choice.accessible)
            $("links").hidden = false
            $("link-mine").focus()
        } else if (choice.opponent === "engine") {
            location.assign(boardUrl(await server.engine(choice), choice.accessible))
        } else {
            $("seeking").hidden = false
            location.assign(boardUrl(await server.seek(choice), choice.accessible))
        }
    } catch (e) {
        $("error").textContent = e.message
        $("seeking").hidden = true
    } finally {
        $("go").disabled = false
    }
}

$("copy").onclick = () => navigator.clipboard?.writeText($("link-other").value)
