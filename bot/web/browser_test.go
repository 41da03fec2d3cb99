package web

import (
	"context"
	"github.com/eosbot/eos/bot/runwatch"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

func TestBrowserSignInAndOpenAPendingPlan(t *testing.T) {
	f := newFixture(t)
	f.addPlan("7f3a9c21", "infra", store.PlanPending)
	ctx := browser(t)
	signInByLink(t, ctx, f)
	if who := eval[string](t, ctx, `document.getElementById("who").textContent`); who != "mattermost @alice" {
		t.Errorf("signed in as %q", who)
	}
	shot(t, ctx, "overview")
	do(t, ctx, "opening the plan", chromedp.Click(`a[href="/plans/7f3a9c21"]`), chromedp.WaitVisible("table.changes"))
	body := eval[string](t, ctx, "document.body.innerText")
	for _, want := range []string{"admin_password (sensitive)", "terraform_data.volume", "loses data", "job nextcloud"} {
		if !strings.Contains(body, want) {
			t.Errorf("the plan page lacks %q", want)
		}
	}
	shot(t, ctx, "plan")
}

func TestBrowserRunProgressChangesWithoutReload(t *testing.T) {
	f := newFixture(t)
	p := f.addPlan("7f3a9c21", "infra", store.PlanApproved)
	f.startRun(p)
	f.src.runHere(p.ID)
	ctx := browser(t)
	signInByLink(t, ctx, f)
	do(t, ctx, "opening the run", chromedp.Navigate(f.srv.URL+"/runs/7f3a9c21"), chromedp.WaitVisible("#layers"))
	mark(t, ctx)
	waitFor(t, ctx, "the stream to open", `document.querySelector("[data-updates]") !== null`)
	shot(t, ctx, "run-start")

	f.src.publish(p.ID, runwatch.RunUpdate{Event: executor.Event{Layer: executor.Terraform, Resource: "terraform_data.server", Message: "creating", Done: 1, Total: 3}})
	f.src.publish(p.ID, runwatch.RunUpdate{Layer: executor.Terraform, Line: "terraform_data.server: Creating..."})
	waitFor(t, ctx, "Terraform at 1 of 3", `document.querySelector('progress[aria-label="Terraform progress"][value="1"][max="3"]') !== null`)
	waitFor(t, ctx, "the output line", `document.getElementById("log").textContent.includes("Terraform: terraform_data.server: Creating...")`)
	shot(t, ctx, "run-progress")

	if _, err := f.st.FinishRun(ctx, p.ID, store.RunDone, []executor.LayerResult{
		{Layer: executor.Salt, Status: executor.ResultSkipped, Summary: "not configured"},
		{Layer: executor.Terraform, Status: executor.ResultOK, Summary: "+2", Done: 3, Total: 3},
		{Layer: executor.Nomad, Status: executor.ResultOK, Summary: "1/1 healthy", Done: 1, Total: 1}}, time.Now(), nil); err != nil {
		t.Fatal(err)
	}
	f.src.publish(p.ID, runwatch.RunUpdate{Finished: true})
	waitFor(t, ctx, "the run to end", `document.getElementById("run-state").textContent === "done"`)
	if got := eval[string](t, ctx, `document.querySelector('tr[data-layer="nomad"] td').textContent`); got != "ok" {
		t.Errorf("Nomad's row says %q after the run, want ok", got)
	}
	assertNotReloaded(t, ctx)
	shot(t, ctx, "run-done")
}

func TestBrowserALockAppearsAndGoes(t *testing.T) {
	f := newFixture(t)
	p := f.addPlan("7f3a9c21", "infra", store.PlanApproved)
	ctx := browser(t)
	signInByLink(t, ctx, f)
	do(t, ctx, "opening locks", chromedp.Navigate(f.srv.URL+"/locks"), chromedp.WaitVisible("#locks"))
	mark(t, ctx)
	waitFor(t, ctx, "the stream to open", `document.querySelector("[data-updates]") !== null`)
	shot(t, ctx, "none")

	unlock, err := f.st.TryLock(ctx, []string{"production/nextcloud"}, p.ID, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the lock to appear", `document.querySelector('#locks a[href="/runs/7f3a9c21"]') !== null`)
	shot(t, ctx, "held")
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "the lock to go", `document.getElementById("locks").textContent.includes("No locks are held.")`)
	assertNotReloaded(t, ctx)
}

func TestBrowserRefusesUsedAndExpiredLinks(t *testing.T) {
	f := newFixture(t)
	used := f.link()
	f.useLink(f.client(), used)
	ctx := browser(t)
	do(t, ctx, "using a used link", chromedp.Navigate(f.srv.URL+used), chromedp.WaitVisible("#signin"), chromedp.Click("#signin"), chromedp.WaitVisible("#message"))
	if msg := eval[string](t, ctx, `document.getElementById("message").textContent`); !strings.Contains(msg, "used already") {
		t.Errorf("a used link says %q", msg)
	}
	shot(t, ctx, "used")

	expired := f.link()
	do(t, ctx, "opening a link", chromedp.Navigate(f.srv.URL+expired), chromedp.WaitVisible("#signin"))
	f.clock.Add(6 * time.Minute)
	do(t, ctx, "using it after 6 minutes", chromedp.Click("#signin"), chromedp.WaitVisible("#message"))
	if msg := eval[string](t, ctx, `document.getElementById("message").textContent`); !strings.Contains(msg, "expired") {
		t.Errorf("an expired link says %q", msg)
	}
	shot(t, ctx, "expired")
	if n := eval[int](t, ctx, `document.querySelectorAll("#who").length`); n != 0 {
		t.Error("a refused link signed the browser in")
	}
}

func TestBrowserSeesNothingWithoutASession(t *testing.T) {
	f := newFixture(t)
	f.addPlan("7f3a9c21", "infra", store.PlanPending)
	ctx := browser(t)
	for _, path := range []string{"/", "/plans/7f3a9c21"} {
		do(t, ctx, "opening "+path, chromedp.Navigate(f.srv.URL+path), chromedp.WaitVisible("main h1"))
		body := eval[string](t, ctx, "document.body.innerText")
		if !strings.Contains(body, "@eos web") || strings.Contains(body, "7f3a9c21") || strings.Contains(body, "nextcloud") {
			t.Errorf("%s without a session shows:\n%s", path, body)
		}
	}
	shot(t, ctx, "signed-out")
}

func TestBrowserKeyboardFocusIsVisible(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	signInByLink(t, ctx, f)
	do(t, ctx, "pressing Tab", chromedp.KeyEvent(kb.Tab))
	if got := eval[string](t, ctx, `document.activeElement.textContent`); got != "Skip to content" {
		t.Fatalf("the first Tab focuses %q, want the skip link", got)
	}
	do(t, ctx, "pressing Tab", chromedp.KeyEvent(kb.Tab))
	if got := eval[string](t, ctx, `document.activeElement.textContent`); got != "Overview" {
		t.Fatalf("the second Tab focuses %q, want the first link of the nav", got)
	}
	style := eval[string](t, ctx, `(s => s.outlineStyle + " " + s.outlineWidth)(getComputedStyle(document.activeElement))`)
	if style != "solid 3px" {
		t.Errorf("the focused link's outline is %q, want solid 3px", style)
	}
	shot(t, ctx, "focus")
}

// Every page once, as a phone shows it: a heading, the language, labelled fields, and no
// page wider than the screen (wide tables scroll inside their box).
func TestBrowserEveryPageOnAPhone(t *testing.T) {
	f := newFixture(t)
	f.addPlan("aaaa1111", "infra", store.PlanPending)
	p := f.addPlan("7f3a9c21", "infra", store.PlanApproved)
	f.startRun(p)
	if _, err := f.st.FinishRun(context.Background(), p.ID, store.RunDone, nil, t0, &p.Plan.Spec); err != nil {
		t.Fatal(err)
	}
	var recs []store.DriftRecord
	for i := range 20 {
		status := "clean"
		if i%6 == 5 {
			status = "drifted"
		}
		recs = append(recs, store.DriftRecord{Key: "production/nextcloud", At: t0.Add(-time.Duration(i) * 36 * time.Hour), Status: status, Summary: "Terraform: 1 change"})
	}
	if err := f.st.RecordDrift(context.Background(), recs); err != nil {
		t.Fatal(err)
	}
	ctx := browser(t)
	do(t, ctx, "a phone's screen", chromedp.EmulateViewport(390, 844))
	signInByLink(t, ctx, f)
	pages := map[string]string{
		"overview": "/", "plan": "/plans/aaaa1111", "run": "/runs/7f3a9c21", "locks": "/locks",
		"services": "/services", "service": "/services/production/nextcloud", "audit": "/audit",
	}
	for name, path := range pages {
		do(t, ctx, "opening "+path, chromedp.Navigate(f.srv.URL+path), chromedp.WaitVisible("main h1"))
		checks := map[string]string{
			"lang en":                 `document.documentElement.lang === "en"`,
			"one h1":                  `document.querySelectorAll("h1").length === 1`,
			"a main landmark":         `document.querySelectorAll("main").length === 1`,
			"every field labeled":     `[...document.querySelectorAll("input:not([type=hidden]), select")].every(e => e.labels.length > 0)`,
			"fits the screen":         `document.documentElement.scrollWidth <= window.innerWidth`,
			"links and buttons named": `[...document.querySelectorAll("a, button")].every(e => (e.innerText || e.getAttribute("aria-label") || "").trim() !== "")`,
			"charts described":        `[...document.querySelectorAll("svg")].every(e => e.querySelector("title") !== null || e.getAttribute("aria-label") || e.getAttribute("aria-hidden") === "true")`,
		}
		for what, expr := range checks {
			if !eval[bool](t, ctx, expr) {
				t.Errorf("%s: not %s", path, what)
			}
		}
		if low := eval[[]string](t, ctx, lowContrastJS); len(low) > 0 {
			t.Errorf("%s: text below WCAG AA contrast:\n%s", path, strings.Join(low, "\n"))
		}
		shot(t, ctx, name)
	}
}

// lowContrastJS lists the visible text whose contrast with the background behind it is below
// WCAG 2 AA: 4.5:1, or 3:1 for large text (24px, or 18.66px bold).
const lowContrastJS = `(() => {
	const rgb = c => (c.match(/[\d.]+/g) || []).map(Number);
	const lum = ([r, g, b]) => {
		const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
		return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
	};
	const background = el => {
		for (let e = el; e; e = e.parentElement) {
			const c = rgb(getComputedStyle(e).backgroundColor);
			if (c.length === 3 || (c.length === 4 && c[3] > 0.9)) return c.slice(0, 3);
		}
		return [255, 255, 255];
	};
	const out = [];
	for (const el of document.querySelectorAll("body *")) {
		const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim() !== "");
		if (!own || el.offsetParent === null && getComputedStyle(el).position !== "fixed") continue;
		const st = getComputedStyle(el);
		if (st.visibility === "hidden" || el.closest(".sr-only")) continue;
		const a = lum(rgb(st.color).slice(0, 3)), b = lum(background(el));
		const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
		const size = parseFloat(st.fontSize), bold = Number(st.fontWeight) >= 700;
		const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
		if (ratio < need) out.push(el.tagName.toLowerCase() + " \"" + el.textContent.trim().slice(0, 40) + "\" " + ratio.toFixed(2) + ":1");
	}
	return out;
})()`

// The overview is live too: a plan asked for while it is open shows up without a reload, and
// one asked in a channel alice cannot see does not.
func TestBrowserOverviewShowsANewPlanWithoutReload(t *testing.T) {
	f := newFixture(t)
	ctx := browser(t)
	signInByLink(t, ctx, f)
	waitFor(t, ctx, "the overview's stream to open", `document.querySelector("[data-updates]") !== null`)
	mark(t, ctx)
	f.addPlan("0badc0de", "secret-channel", store.PlanPending)
	f.addPlan("7f3a9c21", "infra", store.PlanPending)
	waitFor(t, ctx, "the new plan", `document.querySelector('#overview a[href="/plans/7f3a9c21"]') !== null`)
	if eval[bool](t, ctx, `document.querySelector('#overview a[href="/plans/0badc0de"]') !== null`) {
		t.Error("the overview shows a plan of a channel alice cannot see")
	}
	assertNotReloaded(t, ctx)
	shot(t, ctx, "overview-live")

	// alice leaves #infra: the open page stops showing its plan, without a reload.
	f.src.mu.Lock()
	f.src.see["mattermost/infra"] = false
	f.src.mu.Unlock()
	waitFor(t, ctx, "the plan to go", `document.querySelector('#overview a[href="/plans/7f3a9c21"]') === null`)
	assertNotReloaded(t, ctx)
}
