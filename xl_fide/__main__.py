from xl_fide.cli._main import main_entry

main_entry()
