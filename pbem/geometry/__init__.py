"""Map geometry shared by the games."""
