"""The REST API (`/api/v1/`): thin views over the ledger's services and selectors."""
