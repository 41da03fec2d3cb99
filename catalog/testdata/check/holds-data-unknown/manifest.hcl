service "holdsdataunknown" {
  description = "a check fixture"

  terraform {
    module     = "terraform/local"
    holds_data = ["eoslab_volume.data"]
    variant "production" {
      module     = "terraform/production"
      holds_data = []
    }
    variables = { name = "${service.name}-${env}" }
  }
}
