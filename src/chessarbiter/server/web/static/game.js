// The game page: the board (cm-chessboard), clocks ticking locally and set again by every
// gameState, the move list, the players' actions and the accessible mode. Every rule is the
// server's: legal moves, SAN and the moves in words come from /web/view.
import {Chessboard, COLOR, INPUT_EVENT_TYPE, FEN} from "./vendor/cm-chessboard/src/Chessboard.js"
import {Markers, MARKER_TYPE} from "./vendor/cm-chessboard/src/extensions/markers/Markers.js"
import {PromotionDialog, PROMOTION_DIALOG_RESULT_TYPE} from "./vendor/cm-chessboard/src/extensions/promotion-dialog/PromotionDialog.js"
import {config, follow, gameView, readTypedMove, formatMs, msWords, deadlineText, ApiError} from "./api.js"
import * as server from "./server.js"
import {copyLink, forgetInvite, keptInvite} from "./copy.js"
import {GoneBox} from "./gone.js"

const cfg = config()
const gameId = cfg.gameId
const $ = id => document.getElementById(id)
const params = new URLSearchParams(location.search)
// A player's link carries the game secret, which the server moves into the game's cookie
// before the page loads: every request of the page is signed by that cookie (a spectator
// has none), so no credential is sent as a header.
const token = ""

const OVER = status => !["created", "started"].includes(status)
const SIDE_NAME = {white: "White", black: "Black"}

let full = null          // the gameFull line
let state = null         // the latest gameState
let view = null          // the server's view of state.moves
let viewMoves = null     // the moves `view` is for
let me = null            // "white", "black" or null (spectator)
let announced = -1       // plies announced so far (-1: none yet, the history is not read out)
let clockBase = null     // {white, black, at, running}
let pending = null       // a move sent and not yet in a gameState
let afterMoves = []      // announcements that wait for the moves of their state (notes, result)
let lowSeen = null       // the player's own running clock at the last look (ms)
let haltNoted = false    // the arbiter's note said the clocks were stopped (Art. 6.12)

const board = new Chessboard($("board"), {
    position: FEN.start,
    assetsUrl: "/static/vendor/cm-chessboard/assets/",
    style: {borderType: "none", showCoordinates: true, animationDuration: 150},
    extensions: [{class: Markers, props: {autoMarkers: MARKER_TYPE.frame}}, {class: PromotionDialog, props: {language: "en"}}],
})
// cm-chessboard's SVG is an unnamed image holding the promotion dialog's buttons: a named
// group instead (the position is read in words by the accessible mode).
const boardSvg = $("board").querySelector("svg")
boardSvg.setAttribute("role", "group")
boardSvg.setAttribute("aria-label", "Chessboard")

function turnOf(moves) {
    const plies = moves ? moves.split(" ").filter(Boolean).length : 0
    const first = (full?.initialFen && full.initialFen !== "startpos" ? full.initialFen.split(" ")[1] : "w") === "w" ? "white" : "black"
    return plies % 2 === 0 ? first : (first === "white" ? "black" : "white")
}

function chess960() {
    return full?.variant?.key === "chess960"
}

let networkError = false  // the error shown is a failed connection (cleared on reconnecting)

function error(text, network = false) {
    $("error").textContent = text
    networkError = network && !!text
}

function announce(text) {
    const line = document.createElement("p")
    line.textContent = text
    $("announce").append(line)
    $("announce").scrollTop = $("announce").scrollHeight
}

// -- clocks --

function setClocks() {
    if (!state || !full || !(server.hasClock(full) || server.daysPerTurn(full))) {
        clockBase = null
        return
    }
    const running = OVER(state.status) || server.clockStopped(state) ? null : state.toMove || turnOf(state.moves)
    clockBase = {white: state.wtime, black: state.btime, at: performance.now(), running}
}

function clockNow(side) {
    if (!clockBase) return null
    const left = clockBase[side]
    return clockBase.running === side ? Math.max(0, left - (performance.now() - clockBase.at)) : left
}

function drawClocks() {
    const bottom = board.getOrientation() === COLOR.white ? "white" : "black"
    const top = bottom === "white" ? "black" : "white"
    for (const [id, side] of [["clock-top", top], ["clock-bottom", bottom]]) {
        const el = $(id)
        const ms = clockNow(side)
        el.innerHTML = ""
        const name = document.createElement("span")
        name.className = "name"
        name.textContent = SIDE_NAME[side] + (full ? `: ${playerName(side)}` : "")
        const time = document.createElement("span")
        time.className = "time"
        time.textContent = ms === null ? "no clock" : server.daysPerTurn(full) ? deadline(side, ms) : formatMs(ms)
        el.append(name, time)
        el.classList.toggle("running", !!clockBase && clockBase.running === side)
        el.classList.toggle("low", ms !== null && ms < 20000)
        el.dataset.side = side
    }
}

// A correspondence side's time: "2 days 3 h left to move" while it runs, else its days.
function deadline(side, ms) {
    if (clockBase.running === side) return `${deadlineText(ms)} left to move`
    const days = server.daysPerTurn(full)
    return `${days} day${days === 1 ? "" : "s"} per move`
}

const LOW_TIME_MS = [60000, 30000, 10000]

// "1 minute left", "30 seconds left", "10 seconds left" as the player's own clock runs past
// each mark (not for the time a turn begins with).
function warnLowTime() {
    if (!me || !clockBase || clockBase.running !== me) {
        lowSeen = null
        return
    }
    const ms = clockNow(me)
    const passed = LOW_TIME_MS.filter(mark => lowSeen !== null && lowSeen > mark && ms <= mark && ms > 0)
    if (passed.length) announce(`${msWords(passed[passed.length - 1])} left on your clock.`)
    lowSeen = ms
}

function playerName(side) {
    const player = full?.[side] || {}
    return player.name || player.id || (player.aiLevel ? `engine level ${player.aiLevel}` : "anonymous")
}

// -- the position and the move list --

async function refreshView() {
    const moves = state.moves || ""
    if (moves === viewMoves) return flushAfterMoves()
    let next
    try {
        next = await gameView(full.initialFen, moves, chess960())
    } catch (e) {
        error(e.message)
        return flushAfterMoves()
    }
    if ((state.moves || "") !== moves) return  // a newer state is on its way
    view = next
    viewMoves = moves
    pending = null
    await board.setPosition(view.fen, true)
    board.removeMarkers(MARKER_TYPE.square)
    const last = moves.split(" ").filter(Boolean).pop()
    if (last) for (const square of [last.slice(0, 2), last.slice(2, 4)]) board.addMarker(MARKER_TYPE.square, square)
    drawMoves()
    const plies = view.san.length
    if (announced < 0) {
        announced = plies
    }
    for (; announced < plies; announced++) announce(view.spoken[announced])
    flushAfterMoves()
    document.body.dataset.plies = String(plies)
    updateInput()
}

// What a state says beyond its moves (the arbiter's notes, the result) is announced after
// them: the mating move, then the result.
function announceAfterMoves(text) {
    afterMoves.push(text)
}

function flushAfterMoves() {
    if (state && (state.moves || "") !== viewMoves) return  // its moves are not read yet
    for (const text of afterMoves.splice(0)) announce(text)
}

function drawMoves() {
    const list = $("moves")
    list.innerHTML = ""
    const blackFirst = turnOf("") === "black"
    const fen = full.initialFen && full.initialFen !== "startpos" ? full.initialFen.split(" ") : null
    list.start = fen ? Number(fen[5]) || 1 : 1  // numbered from the start position's move
    const sans = blackFirst ? ["…", ...view.san] : view.san
    for (let i = 0; i < sans.length; i += 2) {
        const item = document.createElement("li")
        for (const san of sans.slice(i, i + 2)) {
            const ply = document.createElement("span")
            ply.className = "ply"
            ply.textContent = san
            item.append(ply)
        }
        list.append(item)
    }
    list.scrollTop = list.scrollHeight
}

// -- moving --

function legalFrom(square) {
    return view ? view.legal.filter(uci => uci.startsWith(square)) : []
}

function plyCount() {
    return (state?.moves || "").split(" ").filter(Boolean).length
}

function halted() {
    return !!state && !!full && server.clocksHalted(full, state, plyCount(), haltNoted)
}

const HALTED = "The clocks are stopped after an interruption (Art. 6.12): waiting for the arbiter to start them."
const ROUND = "The round has not started: the clocks start when the tournament's director starts the round (Art. 6.5)."

function awaitingRound() {
    return !!state && !!full && server.awaitsRound(full, state, plyCount(), haltNoted)
}

function myTurn() {
    return !!me && !!state && !OVER(state.status) && view && view.turn === me && !pending && !halted() && !awaitingRound()
}

function updateInput() {
    board.disableMoveInput()
    if (myTurn()) board.enableMoveInput(onInput, me === "white" ? COLOR.white : COLOR.black)
}

function onInput(event) {
    switch (event.type) {
        case INPUT_EVENT_TYPE.moveInputStarted: {
            const moves = legalFrom(event.squareFrom)
            board.removeLegalMovesMarkers()
            board.addLegalMovesMarkers(moves.map(uci => ({to: uci.slice(2, 4), promotion: uci[4]})))
            return moves.length > 0
        }
        case INPUT_EVENT_TYPE.validateMoveInput: {
            board.removeLegalMovesMarkers()
            const candidates = legalFrom(event.squareFrom).filter(uci => uci.slice(2, 4) === event.squareTo)
            if (!candidates.length) return false
            if (candidates[0].length === 5) {
                board.showPromotionDialog(event.squareTo, me === "white" ? COLOR.white : COLOR.black, result => {
                    if (result.type === PROMOTION_DIALOG_RESULT_TYPE.pieceSelected) {
                        sendMove(event.squareFrom + event.squareTo + result.piece.charAt(1))
                    } else {
                        board.setPosition(view.fen)
                    }
                })
                return true
            }
            sendMove(candidates[0])
            return true
        }
        case INPUT_EVENT_TYPE.moveInputCanceled:
            board.removeLegalMovesMarkers()
            return undefined
        default:
            return undefined
    }
}

async function sendMove(uci) {
    pending = uci
    board.disableMoveInput()
    error("")
    try {
        await server.move(gameId, token, uci, $("with-offer").checked)
        $("with-offer").checked = false
    } catch (e) {
        pending = null
        error(e.message, !(e instanceof ApiError))
        if (view) await board.setPosition(view.fen)
        updateInput()
    }
}

// -- the stream --

function onLine(line) {
    if (line.type === "gameFull") {
        full = line
        if (me && line.presence) opponent = line.presence[OTHER[me]]
        onState(line.state, true)
    } else if (line.type === "gameState") {
        onState(line)
    } else if (line.type === "opponentGone") {
        const was = opponent
        opponent = line.gone ? "gone" : "here"
        if (line.gone && line.claimWinInSeconds !== undefined && !OVER(state?.status || "started")) gone.show(line.claimWinInSeconds)
        else gone.hide()
        if (OVER(state?.status || "started") || was === opponent) return
        announce(line.gone ? "Your opponent has left the game." : was === "absent" ? "Your opponent has arrived." : "Your opponent is back.")
        $("status").textContent = statusText()
        drawInvite()
    }
}

const OTHER = {white: "black", black: "white"}
const gone = new GoneBox(announce)  // the claims against an opponent gone (online profile)
let opponent = null  // the opponent at the board: "here", "absent" (not arrived), "gone" or null (not told)

// The opponent's presence in words, after the state: never "Your move." alone while the
// opponent is not at the board.
function presenceText() {
    if (opponent === "absent") return " Your opponent has not arrived yet."
    if (opponent === "gone") return " Your opponent has left the game."
    return opponent === null && opponentAbsent() ? " Your opponent has not moved yet." : ""
}

function statusText() {
    if (!state) return "Connecting…"
    if (OVER(state.status)) return "Game over."
    const turn = turnOf(state.moves)
    if (!me) return halted() ? HALTED : awaitingRound() ? ROUND : `${SIDE_NAME[turn]} to move.`
    const now = halted() ? HALTED : awaitingRound() ? ROUND
        : turn === me ? "Your move." : `${SIDE_NAME[turn]} to move: waiting for your opponent.`
    return now + presenceText()
}

// Whether the opponent has not made a move yet (the page cannot see whether they opened it).
function opponentAbsent() {
    if (!me || !state || OVER(state.status)) return false
    const first = turnOf("")
    return plyCount() < (first === me ? 2 : 1)
}

// The friend's link (kept by the home page that made the game), on the board until the game
// ends: unfolded while the opponent has not arrived (not told: has not moved), then folded.
let inviteWaiting = null

function drawInvite() {
    const kept = keptInvite(gameId)
    const over = !state || OVER(state.status)
    $("invite").hidden = !kept || over
    if (kept && over && state) forgetInvite(gameId)
    if (!kept || over) return
    if ($("invite-link").value !== kept.other) $("invite-link").value = kept.other
    const waiting = opponent === "absent" || (opponent === null && opponentAbsent())
    if (waiting !== inviteWaiting) $("invite").open = waiting  // else as the player left it
    inviteWaiting = waiting
}

$("invite-copy").onclick = () => copyLink($("invite-link"), $("invite-copied"))

function onState(next, fresh = false) {
    const before = state
    const wasHalted = halted()
    const wasAwaiting = awaitingRound()
    state = next
    if (server.clockStopped(state)) haltNoted ||= server.notesStopClocks(state)
    else haltNoted = false
    if (halted() && !wasHalted) announce(HALTED)
    if (awaitingRound() && !wasAwaiting) announce(ROUND)
    else if (wasAwaiting && !awaitingRound() && !OVER(state.status)) announce("The round has started: the clocks run.")
    setClocks()
    drawClocks()
    $("status").textContent = statusText()
    document.body.dataset.status = state.status
    drawOffer(before)
    drawNotes(fresh)
    drawInvite()
    if (OVER(state.status)) {
        gone.hide()
        showResult(before)
    }
    refreshView()
    updateInput()
    updateButtons()
}

function drawOffer(before) {
    const offerBy = state.wdraw ? "white" : state.bdraw ? "black" : null
    const box = $("offer")
    box.hidden = !offerBy || OVER(state.status)
    if (box.hidden) return
    const mine = offerBy === me
    $("offer-text").textContent = mine ? "You offered a draw." : `${SIDE_NAME[offerBy]} offers a draw.`
    if (before && !(before.wdraw || before.bdraw)) announce($("offer-text").textContent)
    $("accept").hidden = $("decline").hidden = mine || !me
}

// The arbiter's notes on each event, kept as they come (a reconnection starts again).
function drawNotes(fresh) {
    const list = $("notes")
    if (fresh) list.innerHTML = ""
    const notes = server.notes(state)
    $("notes-title").hidden = !notes.length && !list.childElementCount
    for (const note of notes) {
        const item = document.createElement("li")
        item.textContent = note
        list.append(item)
        if (!fresh && !OVER(state.status)) announceAfterMoves(`Arbiter: ${note}`)  // else the result says it
    }
}

function showResult(before) {
    const text = server.resultText(state)
    const box = $("result")
    const fresh = box.hidden || box.textContent !== text
    box.hidden = false
    box.textContent = text
    document.body.dataset.result = state.winner || (["draw", "stalemate", "outoftime"].includes(state.status) ? "draw" : state.status)
    if (fresh && (!before || !OVER(before.status))) announceAfterMoves(text)
    board.disableMoveInput()
}

// A tournament game over: the player's next game is announced here when its round is paired
// (the account's event stream, held by the browser session that plays the tournament).
let watchingNext = false

function watchNextGame() {
    if (watchingNext || !me || full?.source !== "tournament") return
    watchingNext = true
    follow("/api/stream/event", "", line => {
        const game = line.game
        if (line.type !== "gameStart" || game?.source !== "tournament" || game.gameId === gameId) return
        if (!["created", "started"].includes(game.status?.name) || !$("next-game").hidden) return
        const text = `Your next tournament game: you play ${game.color} against ${game.opponent?.username || "your opponent"}.`
        const link = Object.assign(document.createElement("a"), {href: `/${game.gameId}`, textContent: "Go to your board"})
        $("next-game").append(text + " ", link)
        $("next-game").hidden = false
        announce(text)
    }, () => false, () => {})
}

function updateButtons() {
    const over = !state || OVER(state.status)
    for (const id of ["offer-draw", "claim", "resign", "abort", "with-offer"]) $(id).disabled = over || !me
    $("abort").disabled ||= plyCount() >= 2  // once both players have moved, resign instead
    $("actions").hidden = !me || over
    $("after").hidden = !over
    if (over && state) watchNextGame()
}

// -- actions --

async function act(label, call) {
    error("")
    try {
        await call()
    } catch (e) {
        error(e instanceof ApiError ? `${label}: ${e.message}` : e.message, e instanceof TypeError)
    }
}

$("offer-draw").onclick = () => act("offer", () => server.draw(gameId, token, true))
$("accept").onclick = () => act("accept", () => server.draw(gameId, token, true))
$("decline").onclick = () => act("decline", () => server.draw(gameId, token, false))
$("resign").onclick = () => act("resign", () => confirm("Resign this game?") && server.resign(gameId, token))
$("abort").onclick = () => act("abort", () => confirm("Abort this game? It will not count.") && server.abort(gameId, token))
$("claim-victory").onclick = () => act("claim", () => server.claimGone(gameId, token, true))
$("claim-draw").onclick = () => act("claim", () => server.claimGone(gameId, token, false))
$("claim").onclick = () => { $("claim-form").hidden = false }
$("claim-cancel").onclick = () => { $("claim-form").hidden = true }
$("claim-form").onsubmit = event => {
    event.preventDefault()
    const form = new FormData(event.target)
    act("claim", async () => {
        let intended = (form.get("intended") || "").trim()
        if (intended) intended = (await readTypedMove(full.initialFen, state.moves, intended, chess960())).uci
        await server.claim(gameId, token, form.get("kind"), intended)
        $("claim-form").hidden = true
    })
}

$("flip").onclick = () => {
    board.setOrientation(board.getOrientation() === COLOR.white ? COLOR.black : COLOR.white).then(drawClocks)
}

$("pgn").onclick = () => act("PGN", async () => {
    const text = await server.pgn(gameId, token)
    const link = document.createElement("a")
    link.href = URL.createObjectURL(new Blob([text], {type: "application/x-chess-pgn"}))
    link.download = `${gameId}.pgn`
    link.click()
    URL.revokeObjectURL(link.href)
})

// -- the accessible mode --

function setAccessible(on) {
    document.body.classList.toggle("accessible", on)
    $("access").hidden = !on
    $("board").setAttribute("aria-hidden", on ? "true" : "false")  // read on request instead
    $("a11y").checked = on
    localStorage.setItem("chessarbiter:accessible", on ? "1" : "")
}

setAccessible(params.get("accessible") === "1" || !!localStorage.getItem("chessarbiter:accessible"))
if ($("a11y").checked) $("san").focus()
$("a11y").onchange = event => {
    setAccessible(event.target.checked)
    if (event.target.checked) $("san").focus()
}

function reading(what) {
    const text = what.trim().toLowerCase()
    if (!/^(clocks?|time|white|black|board|last|rank\s*[1-8]|file\s*[a-h])$/.test(text)) return null
    if (!view) return "The game has not started."
    if (["clock", "clocks", "time"].includes(text)) {
        if (!clockBase) return "No clock."
        return ["white", "black"].map(side => `${side}: ${msWords(clockNow(side))}${clockBase.running === side ? ", running" : ""}`).join("; ")
    }
    if (text === "white" || text === "black") return view.read[text]
    if (text === "board") return view.read.ranks.slice().reverse().join(". ")
    if (text === "last") return view.spoken.length ? view.spoken[view.spoken.length - 1] : "No move yet."
    let match = text.match(/^rank\s*([1-8])$/)
    if (match) return view.read.ranks[Number(match[1]) - 1]
    match = text.match(/^file\s*([a-h])$/)
    if (match) return view.read.files["abcdefgh".indexOf(match[1])]
    return null
}

function say(text) {
    $("reading").textContent = text
    announce(text)
}

for (const button of document.querySelectorAll("[data-read]")) {
    button.onclick = () => say(reading(button.dataset.read))
}

// The players' actions typed in the move field, done by their buttons (so as the buttons
// would: asking first to resign), when the button is there to press.
const COMMANDS = {
    "accept": "accept", "accept draw": "accept", "decline": "decline", "decline draw": "decline",
    "offer": "offer-draw", "offer draw": "offer-draw", "draw": "offer-draw",
    "resign": "resign", "abort": "abort",
}
const CLAIMS = {"": "threefold", threefold: "threefold", repetition: "threefold", fifty: "fifty", "50": "fifty"}

function available(id) {
    const button = $(id)
    return !!me && !button.disabled && !button.closest("[hidden]")
}

// A claim typed: "claim", "claim fifty", "claim Ng8" or "claim threefold Ng8" (on the
// intended move, Art. 9.2.1.1).
function typedClaim(words) {
    const kind = words[1] !== undefined && words[1].toLowerCase() in CLAIMS ? CLAIMS[words[1].toLowerCase()] : "threefold"
    const intended = words[1] !== undefined && !(words[1].toLowerCase() in CLAIMS) ? words[1] : words[2]
    act("claim", async () => {
        if (!available("claim")) throw new Error("a claim is not possible now")
        const uci = intended ? (await readTypedMove(full.initialFen, state.moves, intended, chess960())).uci : ""
        await server.claim(gameId, token, kind, uci)
    })
}

// Whether the text was a command (done, or refused with the reason).
function command(text) {
    const words = text.trim().split(/\s+/)
    if (words[0].toLowerCase() === "claim") {
        typedClaim(words)
        return true
    }
    const id = COMMANDS[words.join(" ").toLowerCase()]
    if (!id) return false
    if (!available(id)) error(id === "accept" || id === "decline" ? "there is no draw offer to answer" : `${words.join(" ")}: not possible now`)
    else $(id).click()
    return true
}

$("typed").onsubmit = event => {
    event.preventDefault()
    const text = $("san").value
    $("san").value = ""  // refused or done, the field is ready for the next
    const read = reading(text)
    if (read !== null) {
        say(read)
        return
    }
    error("")
    if (command(text)) return
    act("move", async () => {
        if (halted()) throw new Error("the clocks are stopped: waiting for the arbiter")
        if (awaitingRound()) throw new Error("the round has not started: waiting for the director")
        if (!myTurn()) throw new Error(me ? "it is not your move" : "spectators cannot move")
        const {uci} = await readTypedMove(full.initialFen, state.moves, text, chess960())
        await sendMove(uci)
    })
}

// -- start --

async function start() {
    try {
        me = await server.mySide(gameId, token)
    } catch (e) {
        error(e.message)
    }
    document.body.dataset.side = me || "spectator"
    $("role").textContent = me ? `You play ${me}` : "Spectating (read only)"
    $("heading").textContent = `Game ${gameId}: ${me ? `you play ${me}` : "spectating"}`
    if (me === "black") await board.setOrientation(COLOR.black)
    setInterval(() => { drawClocks(); warnLowTime() }, 100)
    await follow(server.streamPath(gameId), token, onLine, () => !!state && OVER(state.status),
        text => {
            if (text) $("status").textContent = text
            else if (networkError) error("")  // connected again: the failed request is history
        })
}

start()
