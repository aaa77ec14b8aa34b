package embedded

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	uiserver "github.com/temporalio/ui-server/v2/server"
	uiconfig "github.com/temporalio/ui-server/v2/server/config"
	uioptions "github.com/temporalio/ui-server/v2/server/server_options"
)

// WebUI is the Temporal Web UI served in this process by Temporal's UI
// server module (github.com/temporalio/ui-server/v2, the same server the
// temporalio/ui image and `temporal server start-dev` run): the UI's
// assets, built into the module, and its HTTP API, which forwards to the
// Temporal frontend over gRPC.
type WebUI struct {
	srv *uiserver.Server
	url string
}

// URL is the UI's base address, http://127.0.0.1:port.
func (u *WebUI) URL() string { return u.url }

// StartWebUI serves the Web UI on 127.0.0.1:port (which must be free: the
// UI server exits the process when it cannot listen, so callers check the
// port first, see pickPort) for the Temporal frontend at frontend
// (host:port), opening on namespace. Writes (cancel, terminate, signal,
// reset) are allowed, as in Temporal's dev server; news fetching is off
// (nothing leaves the machine). It returns once the UI answers its health
// check, or an error after 15 s.
func StartWebUI(port int, frontend, namespace string) (*WebUI, error) {
	cfg := &uiconfig.Config{
		Host:                "127.0.0.1",
		Port:                port,
		TemporalGRPCAddress: frontend,
		EnableUI:            true,
		DefaultNamespace:    namespace,
		// Plain HTTP on loopback: the CSRF cookie must not be Secure, or
		// the browser drops it and every write is refused.
		CORS:             uiconfig.CORS{CookieInsecure: true},
		HideLogs:         true,
		DisableNewsFetch: true,
	}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("temporal web ui config: %w", err)
	}
	srv := uiserver.NewServer(uioptions.WithConfigProvider(cfg))
	go srv.Start() // blocks until Stop; returns nil then
	u := &WebUI{srv: srv, url: "http://127.0.0.1:" + strconv.Itoa(port)}
	hc := &http.Client{Timeout: 2 * time.Second}
	deadline := time.Now().Add(15 * time.Second)
	for {
		var last string
		resp, err := hc.Get(u.url + "/healthz")
		if err != nil {
			last = err.Error()
		} else {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return u, nil
			}
			last = resp.Status
		}
		if time.Now().After(deadline) {
			u.Stop()
			return nil, fmt.Errorf("temporal web ui on %s not healthy after 15s: %s", u.url, last)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Stop closes the UI's listener and connections.
func (u *WebUI) Stop() {
	if u == nil || u.srv == nil {
		return
	}
	u.srv.Stop()
	u.srv = nil
}
