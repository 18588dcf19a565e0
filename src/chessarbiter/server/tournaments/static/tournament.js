// The tournament pages' forms: each posts its fields to the API with the visitor's token
// (kept for the browser session) and reloads the page to show the change; a refusal is
// shown as the server words it. With a token, the visitor's own games get a playing link.
import {getJson, post} from "/static/api.js"

const $ = id => document.getElementById(id)
const KEY = "chessarbiter:token"
let token = sessionStorage.getItem(KEY) || ""
$("token").value = token

async function who() {
    $("who").textContent = ""
    if (!token) return
    try {
        const me = await getJson("/api/account", token)
        $("who").textContent = `signed in as ${me.username}`
        for (const link of document.querySelectorAll("a.game[data-game]")) {
            if (JSON.parse(link.dataset.players).includes(me.username.toLowerCase())) {
                link.href = `/${link.dataset.game}?secret=${encodeURIComponent(token)}`
                link.textContent = `play game ${link.dataset.game}`
            }
        }
    } catch (e) {
        $("who").textContent = e.message
    }
}

$("login").onsubmit = event => {
    event.preventDefault()
    token = $("token").value.trim()
    sessionStorage.setItem(KEY, token)
    who()
}

for (const form of document.querySelectorAll("form[data-post]")) {
    form.onsubmit = async event => {
        event.preventDefault()
        $("error").textContent = ""
        $("done").textContent = ""
        const fields = Object.fromEntries(new FormData(form).entries())
        try {
            const reply = await post(form.dataset.post, token, fields)
            if (reply.url) location.assign(reply.url)
            else location.reload()
        } catch (e) {
            $("error").textContent = e.message
        }
    }
}

who()
