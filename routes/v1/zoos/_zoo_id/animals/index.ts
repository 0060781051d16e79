import { collectionRoutes } from '../../../../../collections/routes.js'
import { Animals, Zoos } from '../../../../../schemas/index.js'

export default collectionRoutes(Animals, { within: Zoos })
