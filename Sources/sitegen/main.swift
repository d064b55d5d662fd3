import Foundation
import SiteGenCLI

exit(await SiteGenTool.main())
