service "holdsdataforgotten" {
  description = "a check fixture"

  terraform {
    module     = "terraform/local"
    holds_data = ["eoslab_server.main"]
    variant "production" {
      module = "terraform/production"
    }
    variables = { name = "${service.name}-${env}" }
  }
}
