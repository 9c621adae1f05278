"""Campaign clocks over the API: role tokens, requests, use cases and the live feed."""
