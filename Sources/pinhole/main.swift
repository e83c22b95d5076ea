print("pinhole")
