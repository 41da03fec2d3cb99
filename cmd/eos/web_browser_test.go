package main

import (
	"io"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/internal/browsertest"
)

// The status page as a person meets it: `eos serve` on its embedded default (console chat,
// bbolt, Terraform on eoslab) with a public URL, driven through the console and a real headless
// Chromium. alice asks for a link with `@eos web` and signs in with it; the link does not work
// twice; the preview's link opens the plan; bob approves in chat; the run's page shows the
// layers advancing and the apply's own output without a reload, and the locks page shows the
// run's lock appear and go. A browser with no session sees nothing of it.
func TestStatusPageInABrowser(t *testing.T) {
	if _, err := exec.LookPath("terraform"); err != nil {
		t.Fatalf("terraform is needed: %v", err)
	}
	bin := eosBinary(t)
	base := "http://" + freeAddr(t)
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(os.Environ(), "EOS_DATA_DIR="+t.TempDir(), "EOS_LOG_LEVEL=warn",
		"EOS_LISTEN="+strings.TrimPrefix(base, "http://"), "EOS_WEB_URL="+base,
		"EOS_TERRAFORM_MIRROR="+eostest.Mirror(t),
		// Slow enough that the page sees the apply under way, layer by layer.
		"EOSLAB_DELAY=1500ms")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() })
	out := follow(stdout)
	say := func(lines ...string) {
		t.Helper()
		if _, err := io.WriteString(stdin, strings.Join(lines, "\n")+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	out.waitFor(t, "status page: "+base+"/")

	// The link comes privately, on the console as a line only alice's terminal shows.
	say("/as alice", "@eos web")
	link := regexp.MustCompile(`https?://\S+/signin/\S+`).FindString(out.waitFor(t, "/signin/"))
	if !strings.HasPrefix(link, base+"/signin/") {
		t.Fatalf("the sign-in link %q is not on %s", link, base)
	}
	answer := out.waitFor(t, "sign-in link")
	if strings.Contains(answer, "/signin/") {
		t.Fatalf("the public answer carries the link: %q", answer)
	}

	ctx := browsertest.Start(t)
	browsertest.Do(t, ctx, "opening the sign-in link", chromedp.Navigate(link), chromedp.WaitVisible("#signin"))
	browsertest.Shot(t, ctx, "signin")
	browsertest.Do(t, ctx, "pressing Sign in", chromedp.Click("#signin"), chromedp.WaitVisible("#who"))
	if who := browsertest.Eval[string](t, ctx, `document.getElementById("who").textContent`); who != "console @alice" {
		t.Errorf("signed in as %q, want console @alice", who)
	}
	browsertest.Shot(t, ctx, "overview")

	// The same link again, in another browser: refused, and that browser has no session.
	other := browsertest.Start(t)
	browsertest.Do(t, other, "opening the used link", chromedp.Navigate(link), chromedp.WaitVisible("#signin"))
	browsertest.Do(t, other, "pressing Sign in with a used link", chromedp.Click("#signin"), chromedp.WaitVisible("#message"))
	if msg := browsertest.Eval[string](t, other, `document.getElementById("message").textContent`); !strings.Contains(msg, "used") {
		t.Errorf("a used link says %q, want it to say it was used", msg)
	}
	browsertest.Shot(t, other, "used-link")

	// The preview links to its plan's page.
	say("@eos create grafana")
	preview := regexp.MustCompile(`^\[(\d+)\]`).FindStringSubmatch(out.waitFor(t, "eos: Plan "))
	if preview == nil {
		t.Fatal("the preview's post has no number")
	}
	planURL := regexp.MustCompile(`https?://\S+/plans/[0-9a-f]+`).FindString(out.waitFor(t, "Full plan and live progress: "))
	if !strings.HasPrefix(planURL, base+"/plans/") {
		t.Fatalf("the preview links to %q, want a page under %s", planURL, base)
	}
	id := planURL[strings.LastIndex(planURL, "/")+1:]
	browsertest.Do(t, ctx, "opening the plan", chromedp.Navigate(planURL), chromedp.WaitVisible("#plan-state"))
	body := browsertest.Eval[string](t, ctx, "document.body.innerText")
	for _, want := range []string{"Plan " + id, "eoslab_server.main", "eoslab_firewall.main", "pending"} {
		if !strings.Contains(body, want) {
			t.Errorf("the plan page lacks %q:\n%s", want, body)
		}
	}
	browsertest.Shot(t, ctx, "plan")

	// Without a session: nothing of the plan, only how to sign in.
	stranger := browsertest.Start(t)
	browsertest.Do(t, stranger, "opening the plan without a session", chromedp.Navigate(planURL), chromedp.WaitVisible("main"))
	if body := browsertest.Eval[string](t, stranger, "document.body.innerText"); strings.Contains(body, "grafana") || !strings.Contains(body, "@eos web") {
		t.Errorf("without a session the plan page shows:\n%s", body)
	}
	browsertest.Shot(t, stranger, "no-session")

	// The locks page, open before the approval, records whether it ever showed the lock.
	locks, closeLocks := chromedp.NewContext(ctx) // a second tab of alice's browser
	t.Cleanup(closeLocks)
	browsertest.Do(t, locks, "opening locks", chromedp.Navigate(base+"/locks"), chromedp.WaitVisible("#locks"))
	browsertest.WaitFor(t, locks, "the locks stream to open", `document.querySelector("[data-updates]") !== null`, 15*time.Second)
	browsertest.Mark(t, locks)
	browsertest.Eval[bool](t, locks, `(() => {
		window.sawLock = false;
		const rows = document.getElementById("locks");
		new MutationObserver(() => { if (rows.innerText.includes("grafana")) window.sawLock = true; })
			.observe(rows, {subtree: true, childList: true, characterData: true});
		return true;
	})()`)

	say("/as bob", "/react "+preview[1]+" +1")
	runURL := regexp.MustCompile(`https?://\S+/runs/[0-9a-f]+`).FindString(out.waitFor(t, "Live progress: "))
	if runURL != base+"/runs/"+id {
		t.Fatalf("the progress post links to %q, want %s", runURL, base+"/runs/"+id)
	}
	browsertest.Do(t, ctx, "opening the run", chromedp.Navigate(runURL), chromedp.WaitVisible("#layers"))
	browsertest.Mark(t, ctx)
	if state := browsertest.Eval[string](t, ctx, `document.getElementById("run-state").textContent`); state != "running" {
		t.Fatalf("the run page opened while the run applies says %q", state)
	}
	browsertest.WaitFor(t, ctx, "Terraform's first resource", `(() => {
		const p = document.querySelector('progress[aria-label="Terraform progress"]');
		return p !== null && Number(p.value) >= 1 && Number(p.value) < Number(p.max);
	})()`, 60*time.Second)
	browsertest.WaitFor(t, ctx, "Terraform's own output", `document.getElementById("log").textContent.includes("Creation complete")`, 60*time.Second)
	browsertest.Shot(t, ctx, "run")
	browsertest.WaitFor(t, ctx, "the run to end", `document.getElementById("run-state").textContent === "done"`, 90*time.Second)
	browsertest.AssertNotReloaded(t, ctx)
	browsertest.Shot(t, ctx, "run-done")
	out.waitFor(t, "done")

	browsertest.WaitFor(t, locks, "the lock to appear and go",
		`window.sawLock === true && !document.getElementById("locks").innerText.includes("grafana")`, 30*time.Second)
	browsertest.AssertNotReloaded(t, locks)
	browsertest.Shot(t, locks, "locks-after")
}

// freeAddr is a loopback address with a port free a moment ago, for a server whose address
// must be known before it starts (its public URL is configured with it).
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}
