print("reflect")
