package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/acecanvas/ace/internal/payloadcrypt"
	"github.com/acecanvas/ace/workers"
)

func init() {
	var addr, origin string
	cmd := &cobra.Command{
		Use:   "codec-server",
		Short: "Serve Temporal's remote codec protocol so the Web UI and CLI can decode ACE's encrypted payloads",
		Long: `Serves POST /{namespace}/encode and /{namespace}/decode (Temporal's remote
codec protocol) with the payload keys of ACE_PAYLOAD_KEY_FILE and
ACE_PAYLOAD_OLD_KEY_FILES, for an operator who holds them: point the Temporal
Web UI's codec endpoint (or temporal --codec-endpoint) at it. It listens on
loopback by default; whoever reaches it can decode every history, so never
expose it beyond the operator's machine without an authenticating proxy.
--allow-origin lets that Web UI origin call it from the browser (CORS).`,
		Example: "  ACE_PAYLOAD_KEY_FILE=/run/secrets/ace-payload-key ace codec-server --allow-origin http://localhost:8080\n" +
			"  temporal workflow show -w ID --codec-endpoint http://127.0.0.1:8089/default",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ring, err := workers.ConfigFromEnv().PayloadRing()
			if err != nil {
				return badInput(err)
			}
			if ring == nil {
				return badInput(fmt.Errorf("%s is not set: the codec server needs the payload key (and %s for keys before a rotation)", payloadcrypt.EnvKeyFile, payloadcrypt.EnvOldKeyFiles))
			}
			l, err := net.Listen("tcp", addr)
			if err != nil {
				return badInput(fmt.Errorf("--addr %s: %w", addr, err))
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			srv := &http.Server{Handler: workers.CodecHandler(ring, origin), ReadHeaderTimeout: 10 * time.Second}
			fmt.Printf("codec server on http://%s (keys %v; current %s)\n", l.Addr(), ring.IDs(), ring.CurrentID())
			go func() {
				<-ctx.Done()
				srv.Shutdown(context.WithoutCancel(ctx))
			}()
			if err := srv.Serve(l); !errors.Is(err, http.ErrServerClosed) {
				return err
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8089", "host:port to listen on")
	cmd.Flags().StringVar(&origin, "allow-origin", "", "the Temporal Web UI's origin allowed to call from a browser (e.g. http://localhost:8080)")
	rootCmd.AddCommand(cmd)
}
