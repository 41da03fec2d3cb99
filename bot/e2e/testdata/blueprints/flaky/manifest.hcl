# A test blueprint for the end-to-end tests of the bot on a real Nomad dev agent: a job whose
# task runs healthy for eight seconds, then fails unless /tmp/eos-e2e-ready-<env> exists, in a
# group that Nomad reschedules only an hour later. Not shipped in the binary.
service "flaky" {
  description = "a test workload that fails until its environment is ready"

  nomad {
    job = "nomad/flaky.nomad.hcl"
    variables = {
      env = env
    }
  }
}
