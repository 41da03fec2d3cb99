package main

// eos policy handles [--forget PLATFORM:HANDLE]: the accounts the policy's handles stand for
// (bot/handles.go pins each to the account that held it when Eos first looked it up), and the
// operator's way to point one at another account on purpose: forget its pin, and the next
// look-up pins whoever holds the handle then. Both go through the Eos holding the bbolt store
// when one answers on its socket (GET /v1/handles, POST /v1/handles/forget), else open the
// store; forgetting is written to the audit log with the local user who ran it.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/user"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store"
)

func policyHandlesCmd(loadCfg func() (*Config, error)) *cobra.Command {
	var forget string
	cmd := &cobra.Command{
		Use:   "handles [--forget PLATFORM:HANDLE]",
		Short: "List the account each handle of the policy stands for, or forget one so the next look-up pins its holder then",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadCfg()
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			r, err := openReader(ctx, cfg)
			if err != nil {
				return err
			}
			defer r.Close()
			if forget == "" {
				pins, err := r.handlePins(ctx)
				if err != nil {
					return err
				}
				return printPins(cmd.OutOrStdout(), pins)
			}
			platform, handle, ok := strings.Cut(forget, ":")
			if !ok || handle == "" || !isPlatform(platform) {
				return fmt.Errorf("--forget %q: give PLATFORM:HANDLE, PLATFORM one of %s (eos policy handles lists them)", forget, strings.Join(adapters.Platforms(), ", "))
			}
			gone, err := r.forgetHandle(ctx, forgetRequest{Platform: platform, Handle: handle, By: localUser()})
			if errors.Is(err, store.ErrNotFound) || err != nil && strings.Contains(err.Error(), store.ErrNotFound.Error()) {
				return fmt.Errorf("no pin for handle %s on %s (eos policy handles lists them)", handle, platform)
			}
			if err != nil {
				return err
			}
			printForgot(cmd.OutOrStdout(), *gone)
			return nil
		},
	}
	cmd.Flags().StringVar(&forget, "forget", "", "forget the pin of this handle (PLATFORM:HANDLE), audited")
	return cmd
}

func isPlatform(name string) bool {
	for _, p := range adapters.Platforms() {
		if p == name {
			return true
		}
	}
	return false
}

// localUser names who ran the tool, for the audit line.
func localUser() string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return "unknown"
}

func printPins(out io.Writer, pins []store.HandlePin) error {
	if len(pins) == 0 {
		_, err := fmt.Fprintln(out, "No handle is pinned yet: Eos pins each handle the policy names when it first looks it up.")
		return err
	}
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "PLATFORM\tHANDLE\tACCOUNT\tNAMED THEN\tPINNED (UTC)")
	for _, p := range pins {
		account, name := p.ID, "@"+p.Name
		if p.Vacant() {
			account, name = "nobody (no account held it)", "-"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", p.Platform, p.Handle, account, name, p.Since.UTC().Format("2006-01-02 15:04"))
	}
	return w.Flush()
}

// forgetRequest is POST /v1/handles/forget's body.
type forgetRequest struct {
	Platform string `json:"platform"`
	Handle   string `json:"handle"`
	By       string `json:"by"`
}

// forgetEntry is the audit line of a forgotten pin.
func forgetEntry(req forgetRequest) store.Entry {
	return store.Entry{At: time.Now().UTC(), Kind: "unpin", User: req.By, Platform: req.Platform,
		Text: "pin of policy handle " + req.Handle + " on " + req.Platform + " forgotten by local user " + req.By + " (eos policy handles --forget)"}
}

func (r *storeReader) handlePins(ctx context.Context) ([]store.HandlePin, error) {
	if r.st != nil {
		return r.st.HandlePins(ctx)
	}
	var pins []store.HandlePin
	err := r.via.do(ctx, http.MethodGet, "/v1/handles", nil, &pins)
	return pins, err
}

// forgotten is what forgetting a pin did: the pin forgotten, and, when a running Eos did it,
// the pin its look-up right after made (Now) or why it made none (NotNow).
type forgotten struct {
	store.HandlePin
	Now    *store.HandlePin `json:"now,omitempty"`
	NotNow string           `json:"not_now,omitempty"`
}

func (r *storeReader) forgetHandle(ctx context.Context, req forgetRequest) (*forgotten, error) {
	if r.st != nil {
		gone, err := r.st.ForgetHandle(ctx, req.Platform, req.Handle, forgetEntry(req))
		if err != nil {
			return nil, err
		}
		return &forgotten{HandlePin: *gone}, nil
	}
	var gone forgotten
	if err := r.via.do(ctx, http.MethodPost, "/v1/handles/forget", req, &gone); err != nil {
		return nil, err
	}
	return &gone, nil
}

// repin has the running engine look the forgotten handle up at once, so the answer names the
// account it stands for from now on.
func (a *app) repin(ctx context.Context, gone store.HandlePin) forgotten {
	out := forgotten{HandlePin: gone}
	if a.engine == nil {
		return out
	}
	now, err := a.engine.PinHandleNow(ctx, gone.Platform, gone.Handle)
	if err != nil {
		out.NotNow = err.Error()
		return out
	}
	out.Now = &now
	return out
}

// printForgot says what forgetting a pin did.
func printForgot(w io.Writer, f forgotten) {
	held := "account " + f.ID
	if f.Vacant() {
		held = "vacant: nobody held it"
	}
	fmt.Fprintf(w, "Forgot %s on %s (%s, pinned %s).", f.Handle, f.Platform, held, f.Since.UTC().Format("2006-01-02 15:04 UTC"))
	switch {
	case f.Now != nil && f.Now.Vacant():
		fmt.Fprintf(w, " Looked up again: no %s account holds %s now, so it is pinned vacant again and names nobody.\n", f.Platform, f.Handle)
	case f.Now != nil:
		fmt.Fprintf(w, " Looked up again: %s now names account %s (@%s).\n", f.Handle, f.Now.ID, f.Now.Name)
	case f.NotNow != "":
		fmt.Fprintf(w, " Not looked up again (%s): the next look-up pins whoever holds the handle then.\n", f.NotNow)
	default:
		fmt.Fprintln(w, " The next look-up pins whoever holds the handle then.")
	}
}
