// Package eoslab is a Terraform provider that simulates a small cloud on the
// local disk, so that Eos's blueprints can be planned, applied, drifted and
// rolled back without a real cloud account or a provider registry.
//
// Every simulated object is one pretty-printed JSON file,
// ROOT/<kind>/<key>.json (for example ROOT/server/proxy-nextcloud.json).
// Editing or removing that file is a genuine out-of-band change: the next
// refresh reads it back into state, and a missing file drops the resource
// from state so that Terraform plans to create it again.
//
// The package owns the provider schema and configuration (root, delay,
// fail_on), the four resource types (eoslab_server, eoslab_volume,
// eoslab_dns_record, eoslab_firewall) and the file store behind them. It is
// a standalone plugin: it must not import any Eos package (adapters, bot,
// catalog, executor, intents); Eos drives it only through Terraform.
package eoslab
