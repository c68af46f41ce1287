print("sumi")
