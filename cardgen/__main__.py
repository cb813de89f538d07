from cardgen.launch import main

raise SystemExit(main())
