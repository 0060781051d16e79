import { favicon } from '../../http/pages.ts'

/** `/favicon.ico`: the icon a browser asks for beside every page (http/pages.ts). */
export default favicon
