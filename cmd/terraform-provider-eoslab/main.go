// Command terraform-provider-eoslab serves the eoslab Terraform provider,
// which simulates a cloud on the local disk (see internal/eoslab). Terraform
// starts it; people only run it with -version. Build it into a filesystem
// mirror with scripts/eoslab-mirror.sh.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/eosbot/eos/internal/eoslab"
)

// version is set at build time: -ldflags "-X main.version=0.1.N".
var version = "dev"

func main() {
	showVersion := flag.Bool("version", false, "print the provider version and exit")
	debug := flag.Bool("debug", false, "run in debug mode for a debugger, printing TF_REATTACH_PROVIDERS")
	flag.Parse()

	if *showVersion {
		fmt.Println(version)
		return
	}
	err := providerserver.Serve(context.Background(), eoslab.New(version), providerserver.ServeOpts{
		Address: eoslab.Address,
		Debug:   *debug,
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "terraform-provider-eoslab: %v\n", err)
		os.Exit(1)
	}
}
