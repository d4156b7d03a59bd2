// Lesson texts as teachers paste them, for the creation calls' tests (component and contract).
/** A lesson of several paragraphs under a heading, as a teacher pastes it (about 2,200 characters). */
export const LONG_LESSON = [
  'The Industrial Revolution',
  '',
  'The Industrial Revolution began in Britain in the late 1700s. Before it, most people lived in villages and worked on farms, and goods such as cloth were made by hand in homes or small workshops. Over about a hundred years, new machines and new sources of power changed how goods were made and where people lived and worked.',
  '',
  'Textiles were the first industry to change. In 1764 James Hargreaves built the spinning jenny, which let one worker spin eight threads at once. Richard Arkwright’s water frame used the power of rivers to drive spinning machines, so factories were built beside fast streams. Later, Edmund Cartwright’s power loom wove cloth far faster than a hand weaver could.',
  '',
  'Steam power freed factories from rivers. James Watt improved the steam engine in the 1770s so that it used much less coal. Factories could now be built in towns, close to workers, coal and canals. Coal mining grew quickly because steam engines, furnaces and later railways all needed fuel. Iron made with coke instead of charcoal became cheaper and stronger, and it was used for machines, bridges and rails.',
  '',
  'Transport changed as well. Canals carried heavy loads of coal and raw cotton at low cost. In 1825 the Stockton and Darlington Railway opened, and by 1850 railways linked most large British towns. Goods, letters and people could travel across the country in hours instead of days.',
  '',
  'Life in the growing towns was hard for many families. Workers, including children, often spent twelve to fourteen hours a day in mills and mines. Houses were crowded and built quickly, with little clean water, so diseases such as cholera spread easily. Over time, laws such as the Factory Act of 1833 limited the hours children could work, and reformers pushed for schools, sewers and safer workplaces.',
  '',
  'The Industrial Revolution spread from Britain to Belgium, France, Germany and the United States during the 1800s. It raised the amount of goods a country could produce, created new jobs and new cities, and also brought pollution and new conflicts between factory owners and workers. Many of the changes it started, from machines powered by fuel to life in large cities, still shape the world today.',
].join('\n');
