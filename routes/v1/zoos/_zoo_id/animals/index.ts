import { collectionRoutes } from '../../../../../collections/routes.ts'
import { Animals } from '../../../../../schemas/animal.ts'
import { Zoos } from '../../../../../schemas/zoo.ts'

export default collectionRoutes(Animals, { within: Zoos })
