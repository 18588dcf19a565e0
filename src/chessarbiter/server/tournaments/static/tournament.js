// The tournament pages' forms: the visitor signs in once with their API token (sent in a
// header to POST /api/session, never in a URL; the server answers with an HttpOnly session
// cookie, which the forms and the game pages act by), each form posts its fields to the API
// and reloads the page to show the change; a refusal is shown as the server words it. Signed
// in, the visitor's own games get a playing link (the game's plain address).
import {getJson, post} from "/static/api.js"

const $ = id => document.getElementById(id)

async function who() {
    $("who").textContent = ""
    let me
    try {
        me = await getJson("/api/account")
    } catch (e) {
        return  // not signed in: a spectator
    }
    $("who").textContent = `signed in as ${me.username}`
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
