// The opponent gone (lichess' opponentGone with claimWinInSeconds): the seconds counted down
// until the game may be claimed, then the two claims, victory or a draw. The server measures
// the absence and rules on the claim (docs/server.md); the page only counts down from what
// it was told, and a later line (claimWinInSeconds: 0, or gone: false) sets it right.
const $ = id => document.getElementById(id)

export class GoneBox {
    // `ready` is called once when the claims become possible (to announce it).
    constructor(ready) {
        this.ready = ready
        this.at = null      // when (Date.now()) the claims become possible; null: hidden
        this.timer = null
    }

    // Told the opponent has left, `seconds` before the game may be claimed.
    show(seconds) {
        const at = Date.now() + seconds * 1000
        const wasReady = this.at !== null && this.at <= Date.now()
        this.at = wasReady ? Math.min(this.at, at) : at
        if (this.timer === null) this.timer = setInterval(() => this.draw(), 250)
        this.draw(wasReady)
    }

    hide() {
        this.at = null
        clearInterval(this.timer)
        this.timer = null
        $("gone").hidden = true
    }

    draw(wasReady = false) {
        if (this.at === null) return
        const left = Math.max(0, Math.ceil((this.at - Date.now()) / 1000))
        $("gone").hidden = false
        $("claim-victory").disabled = $("claim-draw").disabled = left > 0
        $("gone-text").textContent = left > 0
            ? `Your opponent has left the game: you may claim it in ${left} s.`
            : "Your opponent has left the game: you may claim the win, or a draw."
        if (left > 0) return
        clearInterval(this.timer)
        this.timer = null
        if (!wasReady) this.ready($("gone-text").textContent)
    }
}
