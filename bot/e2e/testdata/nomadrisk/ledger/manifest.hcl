# A test blueprint for the data-loss tests of the bot on a real Nomad dev agent: a job whose
# "db" group stands for a database the blueprint marks as holding data, beside a stateless
# "web" group. Nomad part only, on raw_exec. Not shipped in the binary.
service "ledger" {
  description = "a test database and frontend on raw_exec"

  flag "schema" {
    type        = int
    default     = 1
    description = "schema version the database task runs with (changing it replaces the db group)"
  }

  nomad {
    job        = "nomad/ledger.nomad.hcl"
    holds_data = ["db"]
    variables = {
      env    = env
      schema = flag.schema
    }
  }
}
