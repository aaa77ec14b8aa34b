package embedded

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"go.temporal.io/server/common/cluster"
	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/dynamicconfig"
	"go.temporal.io/server/common/log"
	"go.temporal.io/server/common/membership/static"
	sqliteplugin "go.temporal.io/server/common/persistence/sql/sqlplugin/sqlite"
	"go.temporal.io/server/common/primitives"
	"go.temporal.io/server/common/primitives/timestamp"
	sqliteschema "go.temporal.io/server/schema/sqlite"
	"go.temporal.io/server/temporal"
)

// Namespace is the Temporal namespace the embedded server creates and ACE
// uses by default.
const Namespace = "default"

// Retention is how long the embedded server keeps closed workflows (the
// SQLite default is 24 h; a week covers `ace batch status` after a weekend).
const Retention = 7 * 24 * time.Hour

// Temporal is a running in-process Temporal server.
type Temporal struct {
	srv      temporal.Server
	hostPort string
	dbPath   string
}

// HostPort is the frontend's gRPC address (127.0.0.1:port) for SDK clients.
func (t *Temporal) HostPort() string { return t.hostPort }

// DBPath is the SQLite file holding the server's state.
func (t *Temporal) DBPath() string { return t.dbPath }

// StartTemporal is StartTemporalAt on a free frontend port.
func StartTemporal(dir string) (*Temporal, error) { return StartTemporalAt(dir, 0) }

// StartTemporalAt starts the four Temporal services (frontend, history,
// matching, worker) in this process with SQLite at dir/temporal.db, the
// frontend on 127.0.0.1:frontendPort (0: a free port) and the others on
// free ports,
// creating the schema and the namespace on first use. Server logs at warn
// and above go to dir/temporal.log. The caller must hold the data
// directory's lock (LockDir): two processes on one SQLite file corrupt it.
func StartTemporalAt(dir string, frontendPort int) (*Temporal, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("temporal data dir %s: %w", dir, err)
	}
	dbPath := filepath.Join(dir, "temporal.db")
	sqlCfg := &config.SQL{
		PluginName:   sqliteplugin.PluginName,
		DatabaseName: dbPath,
		// WAL + synchronous=NORMAL. Transactions survive a crash of the
		// process (kill -9 included) whatever the synchronous setting;
		// in WAL mode NORMAL skips the fsync on every commit and fsyncs
		// at checkpoints, so only an OS crash or a power loss can roll
		// back the last commits, never corrupt the file (SQLite, "PRAGMA
		// synchronous" and "Write-Ahead Logging"). FULL fsynced every
		// commit (about 4 ms each on this project's machines, measured
		// with dd oflag=dsync), several commits per activity; see
		// BenchmarkOrchestrationOverhead for the per-activity figure.
		ConnectAttributes: map[string]string{
			"mode":         "rwc",
			"journal_mode": "wal",
			"synchronous":  "1",
			"busy_timeout": "10000",
		},
	}
	if _, err := os.Stat(dbPath); errors.Is(err, os.ErrNotExist) {
		if err := sqliteschema.SetupSchema(sqlCfg); err != nil {
			os.Remove(dbPath)
			return nil, fmt.Errorf("create Temporal schema in %s: %w", dbPath, err)
		}
	}
	const clusterName = "active"
	ns, err := sqliteschema.NewNamespaceConfig(clusterName, Namespace, false, nil)
	if err != nil {
		return nil, fmt.Errorf("namespace config: %w", err)
	}
	ns.Detail.Config.Retention = timestamp.DurationPtr(Retention)
	if err := sqliteschema.CreateNamespaces(sqlCfg, ns); err != nil {
		return nil, fmt.Errorf("create namespace %q in %s: %w", Namespace, dbPath, err)
	}

	var ports []int
	if frontendPort == 0 {
		ports, err = freePorts(4)
	} else {
		ports, err = freePorts(3, frontendPort)
		ports = append([]int{frontendPort}, ports...)
	}
	if err != nil {
		return nil, err
	}
	addr := func(p int) string { return "127.0.0.1:" + strconv.Itoa(p) }
	services := []primitives.ServiceName{primitives.FrontendService, primitives.HistoryService,
		primitives.MatchingService, primitives.WorkerService}
	cfg := &config.Config{
		Global: config.Global{
			Membership: config.Membership{MaxJoinDuration: 30 * time.Second, BroadcastAddress: "127.0.0.1"},
		},
		Persistence: config.Persistence{
			DefaultStore:     sqliteplugin.PluginName,
			VisibilityStore:  sqliteplugin.PluginName,
			NumHistoryShards: 1,
			DataStores:       map[string]config.DataStore{sqliteplugin.PluginName: {SQL: sqlCfg}},
		},
		ClusterMetadata: &cluster.Config{
			EnableGlobalNamespace:    false,
			FailoverVersionIncrement: 10,
			MasterClusterName:        clusterName,
			CurrentClusterName:       clusterName,
			ClusterInformation: map[string]cluster.ClusterInformation{
				clusterName: {Enabled: true, InitialFailoverVersion: 1, RPCAddress: addr(ports[0])},
			},
		},
		DCRedirectionPolicy: config.DCRedirectionPolicy{Policy: "noop"},
		Services:            map[string]config.Service{},
		Archival: config.Archival{
			History:    config.HistoryArchival{State: "disabled"},
			Visibility: config.VisibilityArchival{State: "disabled"},
		},
		NamespaceDefaults: config.NamespaceDefaults{Archival: config.ArchivalNamespaceDefaults{
			History:    config.HistoryArchivalNamespaceDefaults{State: "disabled"},
			Visibility: config.VisibilityArchivalNamespaceDefaults{State: "disabled"},
		}},
		PublicClient: config.PublicClient{HostPort: addr(ports[0])},
	}
	hosts := map[primitives.ServiceName]static.Hosts{}
	names := make([]string, 0, len(services))
	for i, s := range services {
		cfg.Services[string(s)] = config.Service{RPC: config.RPC{GRPCPort: ports[i], BindOnIP: "127.0.0.1"}}
		hosts[s] = static.SingleLocalHost(addr(ports[i]))
		names = append(names, string(s))
	}
	logger := log.NewZapLogger(log.BuildZapLogger(log.Config{
		Level: "warn", OutputFile: filepath.Join(dir, "temporal.log"), Format: "json",
	}))
	srv, err := temporal.NewServer(
		temporal.WithConfig(cfg),
		temporal.ForServices(names),
		temporal.WithStaticHosts(hosts),
		temporal.WithLogger(logger),
		temporal.WithDynamicConfigClient(dynamicconfig.StaticClient{
			// New search attributes are visible at once (single process).
			dynamicconfig.ForceSearchAttributesCacheRefreshOnRead.Key(): true,
			// New tasks go to one partition (partitions spread a queue
			// over matching hosts; in one process they only add
			// forwarding); reads keep the default, so tasks an older
			// run left in other partitions are still polled.
			dynamicconfig.MatchingNumTaskqueueWritePartitions.Key(): 1,
		}),
	)
	if err != nil {
		return nil, fmt.Errorf("configure embedded Temporal server: %w", err)
	}
	if err := srv.Start(); err != nil {
		return nil, fmt.Errorf("start embedded Temporal server (db %s): %w", dbPath, err)
	}
	return &Temporal{srv: srv, hostPort: addr(ports[0]), dbPath: dbPath}, nil
}

// Stop stops the services; about a second.
func (t *Temporal) Stop() error {
	if t == nil || t.srv == nil {
		return nil
	}
	err := t.srv.Stop()
	t.srv = nil
	return err
}
