package vault

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// sealServer answers /v1/sys/seal-status like a Vault in the given state; any other request
// fails the test, because New must not go further.
func sealServer(t *testing.T, initialized, sealed bool) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/sys/seal-status" {
			t.Errorf("unexpected request %s %s", r.Method, r.URL.Path)
			http.Error(w, `{"errors":["unexpected"]}`, http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"type":"shamir","initialized":%t,"sealed":%t,"t":1,"n":1,"progress":0,"nonce":"","version":"1.13.0","build_date":"2023-03-01T14:58:13Z","migration":false,"recovery_seal":false,"storage_type":"inmem"}`, initialized, sealed)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestNewRefusesASealedVault(t *testing.T) {
	tests := []struct {
		name                string
		initialized, sealed bool
		want                string
	}{
		{"sealed", true, true, "is sealed: unseal it, then restart Eos"},
		{"uninitialised", false, true, "is not initialised"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := sealServer(t, tt.initialized, tt.sealed)
			_, err := New(context.Background(), Config{Address: srv.URL, Token: "s.sometoken"})
			if err == nil {
				t.Fatal("New succeeded against a sealed Vault")
			}
			want := "Vault at " + srv.URL + " " + tt.want
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error = %q, want it to contain %q", err, want)
			}
			if tt.sealed && tt.initialized && !errors.Is(err, ErrSealed) {
				t.Errorf("error %v is not ErrSealed", err)
			}
			if strings.Contains(err.Error(), "s.sometoken") {
				t.Errorf("error %q contains the token", err)
			}
		})
	}
}

func TestNewReportsAnUnreachableVault(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := "http://" + ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err = New(ctx, Config{Address: addr, Token: "s.sometoken"})
	if err == nil {
		t.Fatal("New succeeded against a closed port")
	}
	if want := "cannot reach Vault at " + addr + ": "; !strings.Contains(err.Error(), want) {
		t.Errorf("error = %q, want it to contain %q", err, want)
	}
}
