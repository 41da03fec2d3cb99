{#- A configuration file under the minion's eos_data_dir holding a password Eos never sees: the
    master's own pillar has it (scripts/testenv/salt.sh puts eos_test_db_password there). #}
{%- set root = salt['config.get']('eos_data_dir', '') ~ '/srv/dbcfg' %}

dbcfg-config:
  file.managed:
    - name: {{ (root ~ '/db.conf') | yaml_dquote }}
    - makedirs: True
    - contents: {{ ('port=' ~ pillar['port'] ~ '\npassword=' ~ salt['pillar.get']('eos_test_db_password')) | yaml_dquote }}
